export { InvitationsRepository } from "./invitations.repository";
export { InvitationsService } from "./invitations.service";
export { rpcRoutes } from "./rpc.routes";
