-- Webhook endpoints, and the outbox of deliveries to them (docs/contract.md §6).

CREATE TABLE webhook_endpoints (
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  url text NOT NULL,
  -- The whsec_ secret deliveries are signed with: the service needs it whole, so it is not hashed.
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_endpoints_of_organization ON webhook_endpoints (organization_id);

-- One row per event and endpoint, written in the transaction of the change it reports: an event exists
-- if and only if its change committed, and the worker sends it only once it can see it, after the commit.
CREATE TABLE webhook_deliveries (
  id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  -- webhook-id: one per event, the same on every retry and for every endpoint.
  message_id text NOT NULL,
  endpoint_id text COLLATE "C" NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  -- Events of one user go out in order. No foreign key: a user.deleted outlives its user.
  user_id text COLLATE "C" NOT NULL,
  -- The exact JSON that is signed and sent.
  payload text NOT NULL,
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL DEFAULT now(),
  delivered_at timestamptz,
  abandoned_at timestamptz,
  last_error text,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX webhook_deliveries_due ON webhook_deliveries (next_attempt_at)
  WHERE delivered_at IS NULL AND abandoned_at IS NULL;
CREATE INDEX webhook_deliveries_per_user ON webhook_deliveries (endpoint_id, user_id, id)
  WHERE delivered_at IS NULL AND abandoned_at IS NULL;
