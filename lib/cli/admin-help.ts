/** The admin commands' help, apart from ./admin.ts so the client commands start without loading it. */
export const ADMIN_HELP = `Admin commands — organizations, API keys and dashboard members. They talk to the
table directly: the running local stack through $QUIRE_DATA_DIR/endpoints.json (default .quire/),
or a deployed stack with --table and --region and the usual AWS credentials.

  orgs create --name NAME                          Create an organization (with its test and production environments)
  keys create --env test|production --name NAME    Create an API key; the full key is printed once
              [--role admin|operator|viewer] [--org ORG_ID] [--legacy]
  keys list [--org ORG_ID]                         List keys (never the keys themselves)
  keys revoke KEY_ID [--org ORG_ID]                Revoke a key; it fails at once, even mid-request
  members create --email EMAIL [--role ROLE]       Add a dashboard member (owner|admin|developer|viewer; the first
              [--org ORG_ID] [--base-url URL]      member is owner, later ones developer) and print a one-time
                                                   sign-in URL (single use, 15 minutes). Again for an existing
                                                   member: a new link (and the role, when given)
  members list [--org ORG_ID]                      List the members of an organization

  Admin options: --json, --org ORG_ID, --table NAME, --region REGION`;
