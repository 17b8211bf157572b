import { createBrowserRouter, type RouteObject } from "react-router";

import { RouteErrorPage } from "@/app/routes/route-error";
import { PageSpinner } from "@/components/page-spinner";
import { routePatterns } from "@/config/paths";
import { RequireAuth } from "@/features/auth/components/require-auth";
import { needMessages } from "@/lib/catalogue";

/**
 * The route table. Only the guard is bundled up front; every screen is its own chunk, the auth
 * screen's included, so a visitor downloads the code of the screen they see.
 *
 * `lazy` in its function form: React Router (7.18) ignores a rejected object-form `Component`
 * (the screen stays blank), while a rejected function reaches the error element, which reloads
 * the page when the chunk is gone after a deploy.
 *
 * A fresh tree per router: React Router writes resolved `lazy` properties back into the route
 * objects, so two routers sharing one tree (tests) would see each other's half-finished loads.
 */
export function createRoutes(): RouteObject[] {
  return [
    {
      // Shown while the first screen's chunk loads on a cold start; to the visitor it is the same wait as the session's.
      hydrateFallbackElement: <PageSpinner />,
      // Every screen's failure to load or render ends here; a screen's chunk gone after a deploy reloads the page once.
      errorElement: <RouteErrorPage />,
      children: [
        {
          // Its own chunk, so the member screens (a signed-in visit) never download the sign-in forms.
          path: routePatterns.auth,
          lazy: async () => ({ Component: (await import("@/app/routes/auth")).AuthRoute }),
        },
        {
          path: routePatterns.setPassword,
          // Outside the member layout: its messages (the settings' part) come with it.
          lazy: async () => {
            const [{ SetPasswordRoute }] = await Promise.all([import("@/app/routes/set-password"), needMessages(["settings"])]);
            return { Component: SetPasswordRoute };
          },
        },
        {
          path: routePatterns.unsubscribe,
          // Signed out too (the digest's link); its messages are the settings' part, as the new password's.
          lazy: async () => {
            const [{ UnsubscribeRoute }] = await Promise.all([import("@/app/routes/unsubscribe"), needMessages(["settings"])]);
            return { Component: UnsubscribeRoute };
          },
        },
        {
          // A frame's page (ADR 0076): no member's session; its messages are the settings' part (a part of
          // its own would add its address in every language to every page's code).
          path: routePatterns.frame,
          lazy: async () => {
            const [{ FrameRoute }] = await Promise.all([import("@/app/routes/frame"), needMessages(["settings"])]);
            return { Component: FrameRoute };
          },
        },
        {
          // The member screens: a session is required.
          Component: RequireAuth,
          children: [
            {
              // Another app asking to use the member's account (ADR 0075): signed in, outside the
              // member screens' layout, with the settings' messages.
              path: routePatterns.oauthConsent,
              lazy: async () => {
                const [{ OAuthConsentRoute }] = await Promise.all([
                  import("@/app/routes/oauth-consent"),
                  needMessages(["settings"]),
                ]);
                return { Component: OAuthConsentRoute };
              },
            },
            {
              // Their query cache; lazy, so TanStack Query stays out of the auth screen's code. Their
              // messages come with it (the member screens' part of the catalogue, lib/catalogue.ts).
              lazy: async () => {
                const [{ MemberLayout }] = await Promise.all([
                  import("@/app/routes/member-layout"),
                  needMessages(["first", "screens"]),
                ]);
                return { Component: MemberLayout };
              },
              children: [
                {
                  path: routePatterns.home,
                  lazy: async () => ({ Component: (await import("@/app/routes/home")).HomeRoute }),
                },
                {
                  // A member allows a frame by the code it shows (ADR 0076): one card, the settings' messages.
                  path: routePatterns.device,
                  lazy: async () => {
                    const [{ DeviceRoute }] = await Promise.all([import("@/app/routes/device"), needMessages(["settings"])]);
                    return { Component: DeviceRoute };
                  },
                },
                {
                  path: routePatterns.addShared,
                  lazy: async () => {
                    const [{ AddSharedRoute }] = await Promise.all([import("@/app/routes/add-shared"), needMessages(["memory"])]);
                    return { Component: AddSharedRoute };
                  },
                },
                {
                  path: routePatterns.memory,
                  lazy: async () => {
                    const [{ MemoryDetailRoute }] = await Promise.all([
                      import("@/app/routes/memory-detail"),
                      needMessages(["memory"]),
                    ]);
                    return { Component: MemoryDetailRoute };
                  },
                },
                {
                  path: routePatterns.photo,
                  lazy: async () => {
                    const [{ PhotoViewerRoute }] = await Promise.all([
                      import("@/app/routes/photo-viewer"),
                      needMessages(["memory"]),
                    ]);
                    return { Component: PhotoViewerRoute };
                  },
                },
                {
                  path: routePatterns.places,
                  lazy: async () => ({ Component: (await import("@/app/routes/places")).PlacesRoute }),
                },
                ...[routePatterns.bookYear, routePatterns.book].map((path) => ({
                  path,
                  lazy: async () => {
                    const [{ BookRoute }] = await Promise.all([import("@/app/routes/book"), needMessages(["book"])]);
                    return { Component: BookRoute };
                  },
                })),
                {
                  path: routePatterns.settings,
                  lazy: async () => {
                    const [{ SettingsLayout }] = await Promise.all([import("@/app/routes/settings"), needMessages(["settings"])]);
                    return { Component: SettingsLayout };
                  },
                  children: [
                    {
                      index: true,
                      lazy: async () => ({ Component: (await import("@/app/routes/settings-account")).AccountSettingsRoute }),
                    },
                    {
                      path: routePatterns.members,
                      lazy: async () => ({ Component: (await import("@/app/routes/settings-members")).MembersRoute }),
                    },
                    {
                      path: routePatterns.notifications,
                      lazy: async () => ({
                        Component: (await import("@/app/routes/settings-notifications")).NotificationSettingsRoute,
                      }),
                    },
                    {
                      path: routePatterns.apps,
                      lazy: async () => ({ Component: (await import("@/app/routes/settings-apps")).AppsSettingsRoute }),
                    },
                    {
                      path: routePatterns.frames,
                      lazy: async () => ({ Component: (await import("@/app/routes/settings-frames")).FramesSettingsRoute }),
                    },
                  ],
                },
              ],
            },
          ],
        },
        {
          path: "*",
          lazy: async () => ({ Component: (await import("@/app/routes/not-found")).NotFoundRoute }),
        },
      ],
    },
  ];
}

export function createAppRouter() {
  return createBrowserRouter(createRoutes());
}
