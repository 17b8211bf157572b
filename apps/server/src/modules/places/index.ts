export { countryRadiusKm, foldPlaceName, GeoNamesPlaceNames, loadPlaceData, type PlaceNames, reverseRadiusKm } from "./geocoder";
export { placeLookupRoutes } from "./place-lookup.routes";
export { PlacesRepository } from "./places.repository";
export { placesRoutes } from "./places.routes";
export { PlacesService } from "./places.service";
