// The API as an organization's own systems use it, next to a dashboard browser test: a token made in
// the dashboard, every call's status checked (or returned, for the calls a test expects to fail).
import { expect, SERVICE_VERSION } from "../fixtures";
import type { ServerInfo } from "./state";

export type ApiCredential = {
  id: string;
  status: string;
  groupId: string;
  recipient: { id: string; name: string; email: string } | null;
  issueDate: string;
  expiryDate: string | null;
  attributes: Record<string, string | null>;
  customAttributes: Record<string, string | null>;
  revokedAt: string | null;
  updatedAt: string;
};

export function dashboardApi(server: ServerInfo, token: string) {
  const headers = {
    Authorization: `Bearer ${token}`,
    "Service-Version": SERVICE_VERSION,
    "X-Forwarded-Proto": "https",
    "Content-Type": "application/json",
  };
  const raw = (method: string, pathname: string, body?: unknown) =>
    fetch(`${server.baseURL}${pathname}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const call = async <T>(method: string, pathname: string, body?: unknown): Promise<T> => {
    const response = await raw(method, pathname, body);
    const text = await response.text();
    expect(response.status, `${method} ${pathname}: ${text}`).toBeLessThan(300);
    return (text ? JSON.parse(text) : undefined) as T;
  };
  return {
    raw,
    call,
    groupId: async () => (await call<{ data: { id: string }[] }>("GET", "/v1/groups")).data[0]!.id,
    draft: (body: Record<string, unknown>) => call<ApiCredential>("POST", "/v1/credentials", body),
    createIssueSend: (body: Record<string, unknown>) => call<ApiCredential>("POST", "/v1/credentials/create-issue-send", body),
    revoke: (id: string) => call<ApiCredential>("POST", `/v1/credentials/${id}/revoke`, {}),
    get: (id: string) => call<ApiCredential>("GET", `/v1/credentials/${id}`),
  };
}
