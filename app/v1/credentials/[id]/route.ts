import { credentialRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = credentialRoute.handlers;
