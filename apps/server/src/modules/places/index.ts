export { PlacesRepository } from "./places.repository";
export { placesRoutes } from "./places.routes";
export { PlacesService } from "./places.service";
