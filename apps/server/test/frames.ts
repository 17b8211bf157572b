import {
  DEVICE_CODE_GRANT_TYPE,
  type DeviceAuthorization,
  type Frame,
  FRAME_CLIENT_ID,
  type FrameSelection,
} from "@memory-box/contract";
import type { LightMyRequestResponse } from "fastify";
import type { TestMember } from "./members";
import type { TestApp } from "./test-app";

// Pairing frames in tests (ADR 0076): the device grant as a frame drives it, the approval as a
// member's phone sends it.

/** The server's clock for tests that travel in time: real time plus an offset moved forward. */
export class FrameTestClock {
  private offsetMs = 0;

  readonly now = (): Date => new Date(Date.now() + this.offsetMs);

  advance(seconds: number): void {
    this.offsetMs += seconds * 1000;
  }
}

/** The session a frame holds once paired. */
export interface PairedFrame {
  frame: Frame;
  accessToken: string;
  refreshToken: string;
  headers: { authorization: string };
}

/** A form post to the OAuth server, as a frame's page sends it. */
export function oauthForm(testApp: TestApp, path: string, fields: Record<string, string>): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: "POST",
    url: `/auth/v1/oauth/${path}`,
    headers: { "content-type": "application/x-www-form-urlencoded" },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** `POST /oauth/device_authorization` as the frame client. */
export async function startPairing(testApp: TestApp, fields: Record<string, string> = {}): Promise<DeviceAuthorization> {
  const response = await oauthForm(testApp, "device_authorization", { client_id: FRAME_CLIENT_ID, scope: "frame", ...fields });
  if (response.statusCode !== 200) throw new Error(`device authorization failed: ${response.body}`);
  return response.json<DeviceAuthorization>();
}

/** One poll of the token endpoint with the device code. */
export function pollToken(
  testApp: TestApp,
  deviceCode: string,
  clientId: string = FRAME_CLIENT_ID,
): Promise<LightMyRequestResponse> {
  return oauthForm(testApp, "token", { grant_type: DEVICE_CODE_GRANT_TYPE, device_code: deviceCode, client_id: clientId });
}

/** `POST /api/v1/frames`: `member` approves the code. */
export function approvePairing(
  testApp: TestApp,
  member: TestMember,
  userCode: string,
  fields: { name?: string; selection?: FrameSelection; display?: unknown } = {},
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: "POST",
    url: "/api/v1/frames",
    headers: member.headers,
    payload: {
      user_code: userCode,
      name: fields.name ?? "Living room",
      selection: fields.selection ?? { kind: "everything" },
      display: fields.display ?? { clock: true, night: null },
    },
  });
}

/** A frame paired by `member` with `selection`, holding its session. */
export async function pairFrame(
  testApp: TestApp,
  member: TestMember,
  selection: FrameSelection = { kind: "everything" },
  name = "Living room",
): Promise<PairedFrame> {
  const pairing = await startPairing(testApp);
  const approved = await approvePairing(testApp, member, pairing.user_code, { name, selection });
  if (approved.statusCode !== 201) throw new Error(`approval failed: ${approved.body}`);
  const tokens = await pollToken(testApp, pairing.device_code);
  if (tokens.statusCode !== 200) throw new Error(`token exchange failed: ${tokens.body}`);
  const { access_token, refresh_token } = tokens.json<{ access_token: string; refresh_token: string }>();
  return {
    frame: approved.json<Frame>(),
    accessToken: access_token,
    refreshToken: refresh_token,
    headers: { authorization: `Bearer ${access_token}` },
  };
}
