import type { Metadata } from "next";
import { getTranslations } from "next-intl/server";
import { latestCorrectionRequests } from "@/lib/corrections/service";
import { listWalletCredentials, walletIssuers, WalletCredentialsQuery } from "@/lib/wallet/recipient-credentials";
import { currentWalletSession } from "@/lib/wallet/session";
import { CredentialCard } from "./credential-card";
import { recipientWalletLocale } from "./locale";
import { WalletOwnerTools } from "./owner-tools";
import { WalletSignInForm } from "./sign-in-form";
import styles from "./wallet.module.css";

export const dynamic = "force-dynamic";

export async function generateMetadata(): Promise<Metadata> {
  const t = await getTranslations({ locale: await recipientWalletLocale(), namespace: "recipientWallet" });
  return { title: t("metaTitle"), robots: { index: false } };
}

// {WALLET_URL}/wallet: the recipient's own space. Signed out, the sign-in form; signed in, every
// credential addressed to their email across organizations.
type Props = { searchParams: Promise<Record<string, string | string[] | undefined>> };

/** The filters and cursor in the address, as the JSON list reads them; anything malformed is dropped rather than refused. */
function listQuery(params: Record<string, string | string[] | undefined>) {
  const one = (name: string) => (typeof params[name] === "string" && params[name] !== "" ? params[name] : undefined);
  const wanted = { issuer: one("issuer"), status: one("status"), cursor: one("cursor") };
  const parsed = WalletCredentialsQuery.safeParse(Object.fromEntries(Object.entries(wanted).filter(([, v]) => v !== undefined)));
  return parsed.success ? parsed.data : WalletCredentialsQuery.parse({});
}

/** The address of the list with these filters (and cursor). */
function listHref(filters: { issuer?: string; status?: string; cursor?: string }): string {
  const query = new URLSearchParams(Object.entries(filters).filter((e): e is [string, string] => typeof e[1] === "string" && e[1] !== ""));
  const text = query.toString();
  return text ? `/wallet?${text}` : "/wallet";
}

export default async function RecipientWalletPage({ searchParams }: Props) {
  const locale = await recipientWalletLocale();
  const t = await getTranslations({ locale, namespace: "recipientWallet" });
  const session = await currentWalletSession();
  if (!session) {
    return (
      <main className={styles.narrow}>
        <div className={styles.card}>
          <h1 className={styles.title}>{t("signInHeading")}</h1>
          <p className={styles.sub}>{t("signInIntro")}</p>
          <WalletSignInForm />
        </div>
      </main>
    );
  }
  return (
    <main className={styles.page}>
      <header className={styles.header}>
        <div>
          <h1 className={styles.title}>{t("heading")}</h1>
          <p className={styles.sub} data-testid="wallet-signed-in-as">
            {t("signedInAs", { email: session.email })}
          </p>
        </div>
        <form method="post" action="/api/wallet/sign-out">
          <button className={styles.secondary} type="submit" data-testid="wallet-sign-out">
            {t("signOut")}
          </button>
        </form>
      </header>
      <WalletList email={session.email} query={listQuery(await searchParams)} />
      <WalletOwnerTools email={session.email} locale={locale} />
    </main>
  );
}

async function WalletList({ email, query }: { email: string; query: WalletCredentialsQuery }) {
  const locale = await recipientWalletLocale();
  const t = await getTranslations({ locale, namespace: "recipientWallet" });
  const [page, issuers] = await Promise.all([listWalletCredentials(email, query), walletIssuers(email)]);
  // One query for the whole page: each card shows its last name correction request.
  const corrections = await latestCorrectionRequests(
    email,
    page.data.map((c) => c.publicId),
  );
  const filtered = query.issuer !== undefined || query.status !== undefined;
  const filters = { issuer: query.issuer, status: query.status };
  return (
    <>
      <section aria-labelledby="wallet-filters-heading" className={styles.filters}>
        <h2 id="wallet-filters-heading" className={styles.visuallyHidden}>
          {t("filtersHeading")}
        </h2>
        {/* A plain GET form: the filters work without JavaScript and stay in the address. */}
        <form method="get" action="/wallet" className={styles.filterForm} data-testid="wallet-filters">
          <div className={styles.field}>
            <label htmlFor="wallet-issuer">{t("issuerFilter")}</label>
            <select id="wallet-issuer" name="issuer" defaultValue={query.issuer ?? ""}>
              <option value="">{t("allIssuers")}</option>
              {issuers.map((issuer) => (
                <option key={issuer.slug} value={issuer.slug}>
                  {issuer.name}
                </option>
              ))}
            </select>
          </div>
          <div className={styles.field}>
            <label htmlFor="wallet-status">{t("statusFilter")}</label>
            <select id="wallet-status" name="status" defaultValue={query.status ?? ""}>
              <option value="">{t("allStatuses")}</option>
              <option value="issued">{t("statusIssued")}</option>
              <option value="expired">{t("statusExpired")}</option>
              <option value="revoked">{t("statusRevoked")}</option>
            </select>
          </div>
          <button className={styles.button} type="submit">
            {t("applyFilters")}
          </button>
          {filtered ? (
            <a href="/wallet" className={styles.clear}>
              {t("clearFilters")}
            </a>
          ) : null}
        </form>
      </section>
      {page.data.length === 0 ? (
        <p className={styles.empty} data-testid="wallet-empty">
          {filtered ? t("emptyFiltered") : t("empty")}
        </p>
      ) : (
        <ul className={styles.cards} data-testid="wallet-credentials">
          {page.data.map((credential) => (
            <CredentialCard
              key={credential.publicId}
              credential={credential}
              locale={locale}
              correction={corrections.get(credential.publicId) ?? null}
            />
          ))}
        </ul>
      )}
      {page.pagination.prev || page.pagination.next ? (
        <nav aria-label={t("pagination")} className={styles.pager}>
          {page.pagination.prev ? <a href={listHref({ ...filters, cursor: page.pagination.prev })}>{t("previousPage")}</a> : <span />}
          {page.pagination.next ? (
            <a href={listHref({ ...filters, cursor: page.pagination.next })} data-testid="wallet-next-page">
              {t("nextPage")}
            </a>
          ) : null}
        </nav>
      ) : null}
    </>
  );
}
