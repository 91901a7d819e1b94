import { sendRoute } from "./endpoints";

export const { GET, POST, PUT, PATCH, DELETE } = sendRoute.handlers;
