import Link from "next/link";
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export default function HomePage() {
  const base = config().publicUrl;
  return (
    <main className="page">
      <h1>Credential issuing service</h1>
      <p>Issue digital certificates and badges through the REST API, render them to PNG and PDF, and share them from a public wallet.</p>
      <ul>
        <li>
          <Link href="/dashboard">Dashboard</Link>: <Link href="/signin">sign in</Link> or <Link href="/signup">create an account</Link>
        </li>
        <li>
          <Link href="/docs">API reference</Link> (the OpenAPI document is at <code>{base}/v1/openapi.json</code>)
        </li>
      </ul>
      <h2>Try it</h2>
      <pre>{`curl ${base}/v1/groups \\
  -H "Authorization: Bearer $TOKEN" \\
  -H "Service-Version: 2022-10-26"`}</pre>
    </main>
  );
}
