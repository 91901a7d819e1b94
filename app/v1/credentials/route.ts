import { credentialsRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = credentialsRoute.handlers;
