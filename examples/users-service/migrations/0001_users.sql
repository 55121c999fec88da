-- Organizations, their users, and the users' API tokens.

CREATE TABLE organizations (
  id text COLLATE "C" PRIMARY KEY,
  name text NOT NULL,
  created_at timestamptz(3) NOT NULL DEFAULT now()
);

CREATE TABLE users (
  -- Ids compare by code point (docs/contract.md §4, "plain string comparison"): under a locale's
  -- collation (en_US, ICU's en-US) usr_a sorts before usr_B, by code point after it.
  id text COLLATE "C" PRIMARY KEY,
  organization_id text COLLATE "C" NOT NULL REFERENCES organizations (id),
  email text NOT NULL,
  name text NOT NULL,
  role text NOT NULL CHECK (role IN ('CLIENT_OWNER', 'CLIENT_ADMIN', 'CLIENT_VIEWER', 'BOT_USER')),
  status text NOT NULL CHECK (status IN ('ACTIVE', 'INVITED', 'SUSPENDED')),
  -- Milliseconds, the precision the API sends: what a client reads is what is stored, so that two
  -- changes within one millisecond still move updatedAt (see the UPDATE in src/users/users-table.ts).
  created_at timestamptz(3) NOT NULL DEFAULT now(),
  updated_at timestamptz(3) NOT NULL DEFAULT now(),
  CHECK (updated_at >= created_at)
);

-- No two users of the whole service share an email, compared case-insensitively (docs/contract.md §1).
-- ICU's root locale lower-cases every script the same way in every database, whatever its own locale
-- (a database made with the C locale would lower-case ASCII letters only).
CREATE UNIQUE INDEX users_email_unique ON users (lower(email COLLATE "und-x-icu"));

-- The list: the users of one organization, in createdAt then id order.
CREATE INDEX users_in_list_order ON users (organization_id, created_at, id);

CREATE TABLE api_tokens (
  -- SHA-256 of the token: a copy of this table lets nobody in.
  token_hash bytea PRIMARY KEY,
  user_id text COLLATE "C" NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE INDEX api_tokens_of_user ON api_tokens (user_id);
