export { devicesRoutes } from "./devices.routes";
export { DevicesService } from "./devices.service";
