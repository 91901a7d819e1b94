// A local DNS server for the domain tests (set DNS_SERVERS to its address): answers TXT questions from
// a table the test fills, NXDOMAIN for any other name, or nothing at all when told to stay silent.
import dgram from "node:dgram";
import dnsPacket from "dns-packet";

export type DnsTestServer = {
  /** `127.0.0.1:<port>`, for DNS_SERVERS. */
  address: string;
  /** TXT records by name (each record one or more strings); remove a name to answer NXDOMAIN. */
  txt: Map<string, string[][]>;
  silent: boolean;
  questions: string[];
  close: () => Promise<void>;
};

export async function startDnsServer(): Promise<DnsTestServer> {
  const socket = dgram.createSocket("udp4");
  const state: DnsTestServer = {
    address: "",
    txt: new Map(),
    silent: false,
    questions: [],
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  socket.on("message", (message, remote) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    state.questions.push(question.name);
    if (state.silent) return;
    const records = question.type === "TXT" ? state.txt.get(question.name.toLowerCase()) : undefined;
    const answer = dnsPacket.encode({
      type: "response",
      id: query.id,
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: (records ?? []).map((data) => ({ type: "TXT" as const, name: question.name, ttl: 60, class: "IN" as const, data })),
    });
    socket.send(answer, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  state.address = `127.0.0.1:${socket.address().port}`;
  return state;
}
