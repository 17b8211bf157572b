import { ApiError, MapSettings, PlaceCountryList, PlaceMap, PlaceMapQuery } from "@memory-box/contract";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { type MemberAuthenticator, memberOf, requireMembers } from "../member-door";
import type { PlacesService } from "./places.service";

export interface PlacesRoutesOptions {
  service: PlacesService;
  authenticate: MemberAuthenticator;
}

/**
 * `/api/v1/places/*` of the collection's places: the map, the countries, the basemap setting.
 * A place is as private as its memory: members only.
 */
export const placesRoutes: FastifyPluginAsyncZod<PlacesRoutesOptions> = async (app, { service, authenticate }) => {
  requireMembers(app, authenticate);

  app.get(
    "/api/v1/places/map",
    {
      schema: {
        tags: ["places"],
        summary: "The memories with a place within a map's view, grouped into marks for its zoom",
        querystring: PlaceMapQuery,
        response: { 200: PlaceMap, 400: ApiError, 401: ApiError },
      },
    },
    // The collection's generation, as the member check read it: kept map levels are exact at it.
    async (request) => service.map(request.query, memberOf(request).collection?.generation),
  );

  app.get(
    "/api/v1/places/countries",
    {
      schema: {
        tags: ["places"],
        summary: "The countries memories have a place in, with how many, most first",
        response: { 200: PlaceCountryList, 401: ApiError },
      },
    },
    async () => service.countries(),
  );

  app.get(
    "/api/v1/places/settings",
    {
      schema: {
        tags: ["places"],
        summary: "The map's basemap: the operator's MapLibre style, or null for the embedded world map",
        response: { 200: MapSettings, 401: ApiError },
      },
    },
    () => service.settings(),
  );
};
