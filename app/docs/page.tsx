// A readable API reference rendered on the server from the OpenAPI document (no client script).
import type { Metadata } from "next";
import { buildOpenApiDocument } from "@/lib/api/openapi";
import { config } from "@/lib/config";
import { allV1Routes } from "@/app/v1/openapi.json/endpoints";
import styles from "./docs.module.css";
import { WebhookVerification } from "./webhook-verification";

export const metadata: Metadata = { title: "API reference" };
export const dynamic = "force-dynamic";

type Operation = {
  tags: string[];
  summary: string;
  description?: string;
  parameters: ({ name: string; in: string; required: boolean; schema: unknown } | { $ref: string })[];
  requestBody?: { content: { "application/json": { schema: unknown } } };
  responses: Record<string, { description: string; content?: { "application/json": { schema: unknown } } }>;
};

/** Descriptions use `backticks` for code, as OpenAPI's Markdown does. */
function Prose({ text }: { text: string }) {
  return <>{text.split("`").map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}</>;
}

export default function DocsPage() {
  const doc = buildOpenApiDocument(allV1Routes(), config().publicUrl);
  const operations = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, Operation>).map(([method, op]) => ({ path, method, op })),
  );
  const tags = [...new Set(operations.map((o) => o.op.tags[0]!))];
  return (
    <main className="page">
      <h1>API reference</h1>
      <p>
        <Prose text={doc.info.description} />
      </p>
      <p>
        Base URL: <code>{config().publicUrl}</code>. Machine-readable: <a href="/v1/openapi.json">/v1/openapi.json</a> (OpenAPI 3.1).
      </p>
      <nav aria-label="Endpoints">
        <ul>
          {operations.map(({ path, method, op }) => (
            <li key={method + path}>
              <a href={`#${method}-${path}`}>
                <code>
                  {method.toUpperCase()} {path}
                </code>
              </a>{" "}
              {op.summary}
            </li>
          ))}
        </ul>
      </nav>
      {tags.map((tag) => (
        <section key={tag}>
          <h2>{tag}</h2>
          {tag === "Webhooks" ? <WebhookVerification /> : null}
          {operations
            .filter((o) => o.op.tags[0] === tag)
            .map(({ path, method, op }) => (
              <article key={method + path} id={`${method}-${path}`} className={styles.operation}>
                <h3>
                  <span className={styles.method}>{method.toUpperCase()}</span> <code>{path}</code>
                </h3>
                <p>{op.summary}</p>
                {op.description ? (
                  <p>
                    <Prose text={op.description} />
                  </p>
                ) : null}
                {op.parameters.some((p) => !("$ref" in p)) ? (
                  <>
                    <h4>Parameters</h4>
                    <ul>
                      {op.parameters.flatMap((p) =>
                        "$ref" in p
                          ? []
                          : [
                              <li key={p.in + p.name}>
                                <code>{p.name}</code> ({p.in}
                                {p.required ? ", required" : ""})
                              </li>,
                            ],
                      )}
                    </ul>
                  </>
                ) : null}
                {op.requestBody ? (
                  <details>
                    <summary>Request body schema</summary>
                    <pre>{JSON.stringify(op.requestBody.content["application/json"].schema, null, 2)}</pre>
                  </details>
                ) : null}
                <h4>Responses</h4>
                <ul>
                  {Object.entries(op.responses).map(([status, r]) => (
                    <li key={status}>
                      <code>{status}</code> {r.description}
                    </li>
                  ))}
                </ul>
              </article>
            ))}
        </section>
      ))}
    </main>
  );
}
