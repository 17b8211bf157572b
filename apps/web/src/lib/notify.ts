import { toast } from "sonner";

/**
 * The app's toasts: a title plus an optional description, as the spec's error catalogue lists
 * them. `error` is the destructive style, `success` the non-destructive one.
 */
export const notify = {
  error(title: string, description?: string) {
    toast.error(title, { description });
  },
  success(title: string, description?: string) {
    toast.success(title, { description });
  },
};
