export { registeredAppsRoutes } from "./registered-apps.routes";
export { RegisteredAppsService } from "./registered-apps.service";
