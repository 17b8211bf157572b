export { countryRadiusKm, foldPlaceName, GeoNamesPlaceNames, loadPlaceData, type PlaceNames, reverseRadiusKm } from "./geocoder";
export { placeLookupRoutes } from "./place-lookup.routes";
