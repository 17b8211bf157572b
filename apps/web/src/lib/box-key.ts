/**
 * The box's name, cover and "together since" (`GET /api/v1/box`, ADR 0065): its path and query key,
 * here rather than in the box feature because the first screen's script asks for it early (it
 * must not load the query library) and the live stream (the memories feature) refetches it on
 * `box.updated`, and a feature never imports another.
 */
export const boxPath = "/api/v1/box";

export const boxKey = ["box"] as const;
