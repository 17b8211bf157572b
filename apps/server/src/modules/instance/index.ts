export { InstanceSettingsRepository } from "./instance-settings.repository";
