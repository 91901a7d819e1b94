import { deliveriesRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = deliveriesRoute.handlers;
