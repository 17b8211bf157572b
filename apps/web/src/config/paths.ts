/** Route patterns, as the router table declares them. */
export const routePatterns = {
  home: "/",
  auth: "/auth",
  setPassword: "/auth/reset",
  memory: "/memory/:id",
  photo: "/memory/:id/photo/:number",
  settings: "/settings",
  members: "/settings/members",
  notifications: "/settings/notifications",
  /** The apps a member let sign them in, and the apps owners registered (issue #36). */
  apps: "/settings/apps",
  /** The e-mail digest's one-click unsubscribe (issue #33), signed out too. */
  unsubscribe: "/unsubscribe",
  /** The collection's places on a map. */
  places: "/places",
  /** Where a share from the phone's gallery lands (`lib/shared-photos.ts` names it): home with "Add Memory" open. */
  addShared: "/add-shared/:id",
  /** A year printed as a book (issue #35); `?tag=` narrows it. */
  bookYear: "/book/:year",
  /** A book of a range of days (`?from=YYYY-MM-DD&to=YYYY-MM-DD`, either end open) or of a tag (`?tag=`). */
  book: "/book",
  /** Where the auth server sends a member to allow or deny another app's request (`?authorization_id=`, ADR 0075). */
  oauthConsent: "/oauth/consent",
  /** A frame's own page (ADR 0076): pairing, then the slideshow; no member signs in on it. */
  frame: "/frame",
  /** Where a member enters the code a frame shows (`?code=`) and allows it. */
  device: "/device",
  /** Settings → Frames: the paired frames, what each shows, removing one. */
  frames: "/settings/frames",
} as const;

/** Links to the app's screens; build URLs here rather than by hand so a route can move in one place. */
export const paths = {
  home: routePatterns.home,
  auth: routePatterns.auth,
  /** Where a password recovery link lands, signed in by the link. */
  setPassword: routePatterns.setPassword,
  /** The auth screen opened on "Reset your password". */
  forgotPassword: `${routePatterns.auth}?view=forgot`,
  memory: (id: string) => `/memory/${encodeURIComponent(id)}`,
  /** A memory's photo in the viewer; `number` counts from 1, as "Memory photo N" does. */
  photo: (id: string, number: number) => `/memory/${encodeURIComponent(id)}/photo/${number}`,
  /** The account area: the member's own profile and devices. */
  settings: routePatterns.settings,
  /** Who is in; owners manage it there. */
  members: routePatterns.members,
  /** This device's notifications and the e-mail digest. */
  notifications: routePatterns.notifications,
  /** Apps that sign members in with Memory Box. */
  apps: routePatterns.apps,
  /** The paired frames. */
  frames: routePatterns.frames,
  /** A frame's own page, opened on the frame. */
  frame: routePatterns.frame,
  /** Entering a frame's code (the frame's QR code adds `?code=`). */
  device: routePatterns.device,
  /** Where the memories happened, on a map. */
  places: routePatterns.places,
  /** A year as a print-ready book, of the memories carrying every one of `tags` (none: all). */
  bookYear: (year: number | string, tags: readonly string[] = []) => withTags(`/book/${year}`, tags),
  /** Home listing the memories near `latitude,longitude` ("Memories near here"); `name` names the filter's chip. */
  memoriesNear: (near: string, name?: string) =>
    `${routePatterns.home}?${new URLSearchParams({ near, ...(name ? { [nearNameParam]: name } : {}) })}`,
} as const;

/** Beside home's `near` filter: the name of the place it is near, for the chip ("Near Sintra"); never sent to the API. */
export const nearNameParam = "name";

function withTags(path: string, tags: readonly string[]): string {
  const params = new URLSearchParams();
  for (const tag of tags) params.append("tag", tag);
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}
