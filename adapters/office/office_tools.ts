/**
 * The office's eight tools, and the business rules of its two approvers.
 *
 * Each tool does its job in the world and, where it reads data, reports the
 * label of what it really returned (Gate 2 keeps the stricter label).
 *
 * @module
 */
import { type ApproverRule, withLabel } from "../../mod.ts";
import type { OfficeWorld } from "./office_world.ts";

/** An office tool: runs against a world with one object of arguments. */
export type OfficeTool = (world: OfficeWorld, args: Record<string, unknown>) => unknown;

/** The eight tools. */
export const OFFICE_TOOLS: Readonly<Record<string, OfficeTool>> = Object.freeze({
  read_file(world, args) {
    const file = world.files[`${args.system}/${args.name}`];
    if (!file) throw new Error(`No file ${args.system}/${args.name}`);
    return withLabel(file.text, file.label);
  },
  send_email(world, args) {
    world.outbox.push({ to: String(args.to), subject: String(args.subject ?? ""), body: String(args.body ?? "") });
    world.events.push({ kind: "email", to: String(args.to) });
    return "sent";
  },
  create_ticket(world, args) {
    world.tickets.set(String(args.name), String(args.content ?? ""));
    world.events.push({ kind: "ticket", name: String(args.name) });
    return "filed";
  },
  file_preclearance(world, args) {
    world.tickets.set(String(args.name), `Legal pre-clearance for ${args.client}`);
    world.events.push({ kind: "preclearance", name: String(args.name) });
    return "precleared";
  },
  send_contract_terms(world, args) {
    world.outbox.push({ to: String(args.to), subject: "Contract terms", body: String(args.terms ?? "") });
    world.events.push({ kind: "contract", to: String(args.to) });
    return "sent";
  },
  send_release(world, args) {
    world.outbox.push({ to: String(args.to), subject: `Release ${args.code}`, body: `Release ${args.code} is out.` });
    world.events.push({ kind: "release", to: String(args.to) });
    return "sent";
  },
  refund(world, args) {
    world.refunds.push([Number(args.account), Number(args.amount)]);
    world.events.push({ kind: "refund", account: Number(args.account), amount: Number(args.amount) });
    return "refunded";
  },
  share_legal_packet(world, args) {
    const packet = world.files["finance/legal-packet.md"];
    world.outbox.push({ to: String(args.to), subject: "Legal packet", body: packet.text });
    world.events.push({ kind: "packet", to: String(args.to) });
    return withLabel("shared", packet.label);
  },
});

/**
 * The approvers' business rules. Legal may waive a wrong-recipient gap only for
 * the legal packet and only to outside counsel; the manager may approve a
 * refund only up to $500 and only to an account with an open case.
 */
export function officeApprovers(world: OfficeWorld): Record<string, ApproverRule> {
  return {
    legal: ({ tool, args }) =>
      tool === "share_legal_packet" && args.to === "outside-counsel@external.example" ||
      "legal signs off only the legal packet to outside-counsel@external.example",
    manager: ({ tool, args }) => {
      if (tool !== "refund") return "the manager approves refunds only";
      if (Number(args.amount) > 500) return `$${args.amount} is over the $500 limit`;
      if (!world.openCases.has(Number(args.account))) return `account ${args.account} has no open case`;
      return true;
    },
  };
}
