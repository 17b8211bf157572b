import type { MemberDirectory, SingleSignOnOverview, SingleSignOnProvider } from "@memory-box/contract";
import { screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";

import { forgetSignInProviders } from "@/features/auth/api/providers";
import { FakeAuthClient, fakeSession, fakeUser } from "@/testing/fake-auth-client";
import { renderApp } from "@/testing/render-app";
import { apiError, stubMemoryApi, type ApiHandler } from "@/testing/stub-memory-api";

const you = fakeUser();

function directory(role: "owner" | "member"): MemberDirectory {
  return {
    your_role: role,
    members: [{ id: you.id, email: you.email!, display_name: "Alex", role }],
    invitations: [],
  };
}

const serviceProvider: SingleSignOnOverview["service_provider"] = {
  entity_id: "https://memories.example.org/auth/v1/sso/saml/metadata",
  assertion_consumer_url: "https://memories.example.org/auth/v1/sso/saml/acs",
  metadata_url: "https://memories.example.org/auth/v1/sso/saml/metadata?download=true",
};

const familyIdp: SingleSignOnProvider = {
  id: "5d0c7c62-1c1e-4a57-9b0e-000000000001",
  entity_id: "https://idp.family.example/saml",
  domains: ["family.example"],
  metadata_url: "https://idp.family.example/saml/metadata",
  created_at: "2026-11-20T10:00:00.000Z",
};

/** A signed-in member of `role`, with the server's single sign-on answering `overview` (or its refusal). */
function membersPage(role: "owner" | "member", routes: Record<string, ApiHandler>, { samlOn = true } = {}) {
  const api = stubMemoryApi({
    "GET /api/v1/members": () => directory(role),
    // The auth service's settings, which every page reads: whether the server has SAML on.
    "GET /auth/v1/settings": () => ({ external: { email: true }, external_providers: [], saml_enabled: samlOn }),
    ...routes,
  });
  const view = renderApp("/settings/members", { client: new FakeAuthClient({ session: fakeSession(you) }) });
  return { ...view, ...api };
}

/** An owner's server that keeps its providers, as the real one does, so a test sees the list change. */
function ownerWithProviders(initial: SingleSignOnProvider[], add: ApiHandler = ({ body }) => added(body)) {
  let providers = [...initial];
  return membersPage("owner", {
    "GET /api/v1/single-sign-on": () => ({ service_provider: serviceProvider, providers }) satisfies SingleSignOnOverview,
    "POST /api/v1/single-sign-on/providers": async (request) => {
      const answer = await add(request);
      if (!(answer instanceof Response)) providers = [...providers, answer as SingleSignOnProvider];
      return answer;
    },
    "DELETE /api/v1/single-sign-on/providers/:id": ({ params }) => {
      providers = providers.filter((provider) => provider.id !== params.id);
    },
  });
}

function added(body: unknown): SingleSignOnProvider {
  const input = body as { metadata_url?: string; domains: string[] };
  return {
    id: "5d0c7c62-1c1e-4a57-9b0e-000000000002",
    entity_id: "https://login.work.example/idp",
    domains: input.domains,
    metadata_url: input.metadata_url ?? null,
    created_at: "2026-11-26T10:00:00.000Z",
  };
}

async function singleSignOnSection() {
  return (await screen.findByRole("heading", { name: "Single sign-on" })).closest<HTMLElement>("[data-slot=card]")!;
}

afterEach(() => {
  forgetSignInProviders();
});

describe("settings: single sign-on for owners", () => {
  it("shows an owner what to give the identity provider, and the providers registered", async () => {
    ownerWithProviders([familyIdp]);
    const section = within(await singleSignOnSection());

    expect(
      await section.findByText("Members of your household's domains sign in with your identity provider. Give it these details:"),
    ).toBeInTheDocument();
    expect(section.getByLabelText("Entity ID")).toHaveValue(serviceProvider.entity_id);
    expect(section.getByLabelText("Entity ID")).toHaveAttribute("readonly");
    expect(section.getByLabelText("Assertion consumer URL")).toHaveValue(serviceProvider.assertion_consumer_url);
    expect(section.getByLabelText("This server's metadata URL")).toHaveValue(serviceProvider.metadata_url);

    const row = section.getByRole("listitem", { name: familyIdp.entity_id });
    expect(within(row).getByText("family.example")).toBeInTheDocument();
    expect(within(row).getByRole("button", { name: "Remove" })).toBeInTheDocument();
  });

  it("copies a detail for pasting into the identity provider", async () => {
    const { user } = ownerWithProviders([]);
    const section = within(await singleSignOnSection());
    await user.click(await section.findByRole("button", { name: "Copy Assertion consumer URL" }));
    expect(await navigator.clipboard.readText()).toBe(serviceProvider.assertion_consumer_url);
    expect(section.getByRole("button", { name: "Copy Assertion consumer URL" })).toHaveTextContent("Copied");
  });

  it("says when there is no identity provider yet", async () => {
    ownerWithProviders([]);
    const section = within(await singleSignOnSection());
    expect(await section.findByText("No identity provider yet.")).toBeInTheDocument();
    expect(section.queryByRole("list")).not.toBeInTheDocument();
  });

  it("adds a provider by its metadata address: domains split and trimmed, then listed, the form emptied", async () => {
    const { user, calls } = ownerWithProviders([]);
    const section = within(await singleSignOnSection());
    const add = await section.findByRole("button", { name: "Add" });
    expect(add).toBeDisabled();

    await user.type(section.getByLabelText("Metadata URL"), " https://login.work.example/idp/metadata ");
    expect(add).toBeDisabled(); // no domain yet
    await user.type(section.getByLabelText("Email domains"), " work.example ,  family.example,, ");
    await user.click(add);

    expect(await screen.findByText("Identity provider added")).toBeInTheDocument();
    expect(calls("POST /api/v1/single-sign-on/providers").map((call) => call.body)).toEqual([
      { metadata_url: "https://login.work.example/idp/metadata", domains: ["work.example", "family.example"] },
    ]);
    const row = await section.findByRole("listitem", { name: "https://login.work.example/idp" });
    expect(within(row).getByText("work.example, family.example")).toBeInTheDocument();
    expect(section.getByLabelText("Metadata URL")).toHaveValue("");
    expect(section.getByLabelText("Email domains")).toHaveValue("");
  });

  it("adds a provider by its pasted metadata", async () => {
    const { user, calls } = ownerWithProviders([]);
    const section = within(await singleSignOnSection());
    const xml = '<EntityDescriptor entityID="https://login.work.example/idp"></EntityDescriptor>';
    await user.click(await section.findByLabelText("Metadata XML"));
    await user.paste(xml);
    await user.type(section.getByLabelText("Email domains"), "work.example");
    await user.click(section.getByRole("button", { name: "Add" }));

    await waitFor(() =>
      expect(calls("POST /api/v1/single-sign-on/providers").map((call) => call.body)).toEqual([
        { metadata_xml: xml, domains: ["work.example"] },
      ]),
    );
    expect(await section.findByRole("listitem", { name: "https://login.work.example/idp" })).toBeInTheDocument();
  });

  it("asks for one of address and XML, not both, and sends nothing", async () => {
    const { user, calls } = ownerWithProviders([]);
    const section = within(await singleSignOnSection());
    await user.type(await section.findByLabelText("Metadata URL"), "https://login.work.example/idp/metadata");
    await user.click(section.getByLabelText("Metadata XML"));
    await user.paste("<EntityDescriptor/>");
    await user.type(section.getByLabelText("Email domains"), "work.example");
    await user.click(section.getByRole("button", { name: "Add" }));

    expect(await section.findByRole("alert")).toHaveTextContent("Give either the metadata URL or the metadata XML, not both.");
    expect(calls("POST /api/v1/single-sign-on/providers")).toHaveLength(0);
  });

  it("says the server's refusal under the form and keeps what was typed", async () => {
    const { user } = ownerWithProviders([familyIdp], () =>
      apiError(400, "sso_domain_already_exists", "SSO domain already exists: family.example"),
    );
    const section = within(await singleSignOnSection());
    await user.click(await section.findByLabelText("Metadata XML"));
    await user.paste("<EntityDescriptor/>");
    await user.type(section.getByLabelText("Email domains"), "family.example");
    await user.click(section.getByRole("button", { name: "Add" }));

    expect(await section.findByRole("alert")).toHaveTextContent("SSO domain already exists: family.example");
    expect(section.getByLabelText("Email domains")).toHaveValue("family.example");
    expect(section.getByLabelText("Metadata XML")).toHaveValue("<EntityDescriptor/>");
    // Typing again clears the refusal of what was there before.
    await user.type(section.getByLabelText("Email domains"), "x");
    expect(section.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("removes a provider only after confirmation", async () => {
    const { user, calls } = ownerWithProviders([familyIdp]);
    const section = within(await singleSignOnSection());
    const row = await section.findByRole("listitem", { name: familyIdp.entity_id });

    await user.click(within(row).getByRole("button", { name: "Remove" }));
    let dialog = await screen.findByRole("alertdialog", { name: "Remove this identity provider?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(calls(`DELETE /api/v1/single-sign-on/providers/${familyIdp.id}`)).toHaveLength(0);

    await user.click(within(row).getByRole("button", { name: "Remove" }));
    dialog = await screen.findByRole("alertdialog", { name: "Remove this identity provider?" });
    await user.click(within(dialog).getByRole("button", { name: "Remove" }));

    expect(await screen.findByText("Identity provider removed")).toBeInTheDocument();
    expect(calls(`DELETE /api/v1/single-sign-on/providers/${familyIdp.id}`)).toHaveLength(1);
    expect(await section.findByText("No identity provider yet.")).toBeInTheDocument();
  });

  it("offers to try again when the details could not be loaded", async () => {
    let down = true;
    const { user } = membersPage("owner", {
      "GET /api/v1/single-sign-on": () =>
        down
          ? apiError(500, "unexpected_failure")
          : ({ service_provider: serviceProvider, providers: [] } satisfies SingleSignOnOverview),
    });
    const section = within(await singleSignOnSection());
    expect(await section.findByRole("alert", {}, { timeout: 3000 })).toHaveTextContent("Single sign-on could not be loaded.");
    down = false;
    await user.click(section.getByRole("button", { name: "Try again" }));
    expect(await section.findByLabelText("Entity ID")).toHaveValue(serviceProvider.entity_id);
    expect(section.queryByRole("alert")).not.toBeInTheDocument();
  });
});

describe("settings: no single sign-on section", () => {
  it("on a server with SAML off, whose owners are not even asked about it", async () => {
    const { calls } = membersPage(
      "owner",
      { "GET /api/v1/single-sign-on": () => apiError(422, "sso_provider_disabled", "SAML 2.0 is disabled") },
      { samlOn: false },
    );
    expect(await screen.findByRole("heading", { name: "Members" })).toBeInTheDocument();
    await waitFor(() => expect(calls("GET /auth/v1/settings")).toHaveLength(1));
    expect(screen.queryByRole("heading", { name: "Single sign-on" })).not.toBeInTheDocument();
    expect(calls("GET /api/v1/single-sign-on")).toHaveLength(0);
  });

  it("for a member who is not an owner, who is not even asked about it", async () => {
    const { calls } = membersPage("member", {
      "GET /api/v1/single-sign-on": () => apiError(403, "owner_only", "Only an owner of this Memory Box can do this."),
    });
    expect(await screen.findByText("Only an owner can invite or remove members.")).toBeInTheDocument();
    expect(screen.queryByRole("heading", { name: "Single sign-on" })).not.toBeInTheDocument();
    expect(calls("GET /api/v1/single-sign-on")).toHaveLength(0);
  });

  it("when the server refuses the owner (403)", async () => {
    const { calls } = membersPage("owner", {
      "GET /api/v1/single-sign-on": () => apiError(403, "owner_only", "Only an owner of this Memory Box can do this."),
    });
    await waitFor(() => expect(calls("GET /api/v1/single-sign-on")).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Single sign-on" })).not.toBeInTheDocument());
    expect(screen.queryByRole("alert")).not.toBeInTheDocument();
  });

  it("when the server has SAML off (422), asked once", async () => {
    const { calls } = membersPage("owner", {
      "GET /api/v1/single-sign-on": () => apiError(422, "sso_provider_disabled", "SAML 2.0 is disabled"),
    });
    await waitFor(() => expect(calls("GET /api/v1/single-sign-on")).toHaveLength(1));
    await waitFor(() => expect(screen.queryByRole("heading", { name: "Single sign-on" })).not.toBeInTheDocument());
    expect(screen.getByRole("button", { name: "Send invitation" })).toBeInTheDocument();
    expect(calls("GET /api/v1/single-sign-on")).toHaveLength(1);
  });
});
