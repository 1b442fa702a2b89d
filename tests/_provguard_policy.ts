// Test fixture: ProvGuard's published example policy, with its example addresses replaced.
export const PROVGUARD_YAML = `
version: 1
default:
  on_tainted: confirm # unknown tools are never silently allowed
tools:
  read_inbox:
    output: untrusted
  get_contacts:
    output: trusted
  send_email:
    on_tainted: confirm
    args:
      to:
        require: trusted
        allow: ["alice@corp.example"]
        on_violation: block
`;
