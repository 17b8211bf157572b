export { countryRadiusKm, GeoNamesPlaceNames, loadPlaceData, type PlaceNames, reverseRadiusKm } from "./place-names";
export { foldPlaceName } from "./place-fold";
