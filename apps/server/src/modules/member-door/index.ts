export {
  bearerOrTicketAuthenticator,
  type Member,
  memberAuthenticator,
  type MemberAuthenticator,
  memberOf,
  requireMembers,
  serviceRoleAuthenticator,
} from "./member-auth";
export { MemberCheck } from "./member-check";
