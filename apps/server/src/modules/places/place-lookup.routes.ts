import { ApiError, PlaceSearchQuery, PlaceSearchResult, ReversePlaceQuery, ReversePlaceResult } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { requireMembers, type MemberAuthenticator } from "../member-door";
import type { PlaceNames } from "./geocoder";

export interface PlaceLookupRoutesOptions {
  places: PlaceNames;
  authenticate: MemberAuthenticator;
}

const errors = { 400: ApiError, 401: ApiError };

/**
 * `/api/v1/places/search` and `/api/v1/places/reverse`: place names for the memory form, from the
 * GeoNames cities data the server ships (ADR 0058), never from an outside service. For members
 * only: what a member looks up says where they have been.
 */
export const placeLookupRoutes: FastifyPluginAsyncZod<PlaceLookupRoutesOptions> = async (app, { places, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/places/search",
    {
      schema: {
        tags: ["places"],
        summary: "Known places whose name starts with q, most populous first",
        description:
          'Case and accents are ignored ("sao paulo" finds São Paulo). Text after a comma narrows by country, by its code or its name in any language Memory Box speaks ("Sintra, PT", "Sintra, Portugal").',
        querystring: PlaceSearchQuery,
        response: { 200: PlaceSearchResult, ...errors },
      },
    },
    async (request) => ({ places: await places.search(request.query.q, request.query.limit) }),
  );

  app.get(
    "/api/v1/places/reverse",
    {
      schema: {
        tags: ["places"],
        summary: "The known place nearest a point, or null when none is near",
        description: "The nearest place of 1,000 people or more within 50 km; null at sea or far from any.",
        querystring: ReversePlaceQuery,
        response: { 200: ReversePlaceResult, ...errors },
      },
    },
    async (request) => ({ place: await places.reverse(request.query) }),
  );
};
