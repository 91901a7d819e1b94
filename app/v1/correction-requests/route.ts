import { correctionRequestsRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = correctionRequestsRoute.handlers;
