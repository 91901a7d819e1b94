import { rotateSecretRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = rotateSecretRoute.handlers;
