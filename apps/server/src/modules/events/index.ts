export {
  accessSignalSetting,
  announceAccessChanged,
  watchAccessSignal,
  type EventBus,
  InProcessEventBus,
  PostgresEventBus,
} from "./event-bus";
export { eventsRoutes } from "./events.routes";
