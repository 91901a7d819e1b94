import { retryDeliveryRoute } from "./endpoints";

export const { GET, HEAD, OPTIONS, POST, PUT, PATCH, DELETE } = retryDeliveryRoute.handlers;
