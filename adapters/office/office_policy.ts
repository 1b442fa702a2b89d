/**
 * The pretend office's policy: directory, labels, the file catalogue, the
 * eight tools' contracts, the legal and manager approvers and three answer
 * schemas. Plain pab policy YAML; the approvers' business rules are
 * registered in code ({@linkcode officeApprovers} in `office_tools.ts`).
 *
 * @module
 */
import { parsePolicy, type Policy } from "../../mod.ts";

/** The office policy, as YAML text. */
export const OFFICE_POLICY_YAML: string = `# Northwind's pretend office.
version: 1
default:
  on_tainted: confirm
readers:
  groups: [public, staff, hr, finance]
  unknown: public            # anyone the directory does not know is the public
  directory:
    all@northwind.example: staff
    cs@northwind.example: staff
    archive@northwind.example: staff
    legal-ops@northwind.example: staff
    hr-team@northwind.example: hr
    finance-lead@northwind.example: finance
labels:
  web: { readers: all, trust: suspicious }
  company_doc: { readers: [staff, hr, finance], trust: trusted }
  company_case: { readers: [staff, hr, finance], trust: suspicious }
  hr_doc: { readers: [hr], trust: trusted }
  finance_doc: { readers: [finance], trust: trusted }
catalogues:
  files:                     # a trusted lookup: the label of a file, by its path
    key: "{system}/{name}"
    entries:
      public_forum/acme-forum-thread.md: web
      hr/alice-chen.md: hr_doc
      task_tracker/release-distribution.md: company_doc
      task_tracker/case-4211.md: company_case
      finance/legal-packet.md: finance_doc
approvers:
  legal: { mandate: [recipient] }
  manager: { mandate: [approval] }
schemas:
  forum_triage:
    fields:
      topic: { enum: [onboarding, billing, outage, other] }
      needs_followup: bool
    merge: { readers: all, trust: attested }
    tools: [read_file]
  record_check:
    fields:
      on_file: bool
    merge: { readers: all, trust: trusted }      # a deliberate, reviewable declassification
    tools: [read_file]
  refund_case:
    fields:
      account: { int: { min: 1, max: 999999 } }
      amount: { int: { min: 1, max: 10000 } }
    merge: { readers: [staff, hr, finance], trust: attested }
    tools: [read_file]
tools:
  read_file:
    output: { catalogue: files }
    on_tainted: allow
  send_email:
    output: trusted
    on_tainted: allow
    recipients: [{ arg: to }]
  create_ticket:
    output: trusted
    on_tainted: allow
    recipients: [staff]      # every employee can open a ticket
    min_trust: attested
    effects: [ticket.filed]
  file_preclearance:
    output: trusted
    on_tainted: allow
    recipients: [staff]
    min_trust: attested
    effects: [legal.precleared]
    prerequisite:
      args: { name: LEGAL-AUDIT-77, client: "{{to}}" }
  send_contract_terms:
    output: trusted
    on_tainted: allow
    recipients: [{ arg: to }]
    requires_prior: [legal.precleared]
  send_release:
    output: trusted
    on_tainted: allow
    recipients: [{ arg: to }]
    once: release.sent
  refund:
    output: trusted
    on_tainted: allow
    needs_approval: true
    effects: [refund.issued]
  share_legal_packet:
    output: finance_doc      # reads the finance file and e-mails it, in one call
    on_tainted: allow
    recipients: [{ arg: to }]
`;

/** The compiled office policy. */
export function officePolicy(): Policy {
  return parsePolicy(OFFICE_POLICY_YAML, { source: "office.yaml" });
}
