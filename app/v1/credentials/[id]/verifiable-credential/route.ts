import { verifiableCredentialRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = verifiableCredentialRoute.handlers;
