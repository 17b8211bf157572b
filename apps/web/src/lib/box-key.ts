/**
 * The query key of the box's name, cover and "together since" (`GET /api/v1/box`, ADR 0065): here
 * rather than in the box feature, because the live stream (the memories feature) refetches it on
 * `box.updated`, and a feature never imports another.
 */
export const boxKey = ["box"] as const;
