export {
  bearerOrTicketAuthenticator,
  type Member,
  memberAuthenticator,
  type MemberAuthenticator,
  memberOf,
  requireMembers,
  serviceRoleAuthenticator,
  unauthenticatedOnRefusal,
} from "./member-auth";
export { MemberCheck } from "./member-check";
