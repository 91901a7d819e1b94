import { credentialsRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = credentialsRoute.handlers;
