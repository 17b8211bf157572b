export { InvitationsRepository } from "./invitations.repository";
export { InvitationsService } from "./invitations.service";
export { MembersRepository } from "./members.repository";
export { membersRoutes } from "./members.routes";
export { MembersService } from "./members.service";
export { rpcRoutes } from "./rpc.routes";
