import { useMutation } from "@tanstack/react-query";

import { getAuthClient } from "@/lib/auth-client";

/**
 * `PUT /auth/v1/user` with the new `full_name`. The auth client then announces the updated user,
 * so the greeting follows at once; the server tells the other members' screens (profile.updated).
 */
export function useChangeDisplayName() {
  return useMutation({
    mutationFn: async (name: string) => {
      const { error } = await getAuthClient().updateUser({ data: { full_name: name } });
      if (error) throw error;
    },
  });
}
