export { NotificationRunner, type NotificationRunnerOptions } from "./notification-runner";
export { NotificationsRepository } from "./notifications.repository";
export { notificationsRoutes } from "./notifications.routes";
export { NotificationsService } from "./notifications.service";
export { PushSender, resolveVapidKeys } from "./push-sender";
export { onThisDayCounter } from "./on-this-day-count";
