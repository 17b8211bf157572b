export {
  MediaJobError,
  type MediaJobContext,
  type MediaJobHandler,
  type MediaJobProgress,
  MediaJobRunner,
  type MediaJobRunnerOptions,
} from "./media-job-runner";
export { MediaJobsRepository } from "./media-jobs.repository";
