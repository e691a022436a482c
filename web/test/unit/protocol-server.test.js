// The client's list of intents against the server's: the server binary
// prints its own (`fanorona-server protocol`), so the two lists cannot
// drift apart unnoticed. scripts/test.sh runs `cargo test` first, which
// builds the binary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { ClientType } from '../../js/protocol.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(root, 'target');
const binary = path.join(targetDir, 'debug', 'fanorona-server');

test('the client sends exactly the intents the server reads', () => {
  assert.ok(existsSync(binary),
    `${binary} is missing: run \`cargo build -p fanorona-server\` (scripts/test.sh runs cargo test first)`);
  const server = JSON.parse(execFileSync(binary, ['protocol'], { encoding: 'utf8' }));
  assert.deepEqual([...Object.values(ClientType)].sort(), [...server.intents].sort());
});
