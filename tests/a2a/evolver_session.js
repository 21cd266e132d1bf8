// Drives the installed @evomap/evolver client's own library functions against the hub named by
// A2A_HUB_URL (tests/a2a/test_evolver_client.py). One step per run; prints one JSON line.
// This file only calls the package; none of the client's (GPL-3.0) code is copied here.
'use strict';

const path = require('path');
const pkg = process.env.EVOLVER_PACKAGE;
const gep = (name) => require(path.join(pkg, 'src', 'gep', name));

async function step(name, arg) {
  if (name === 'hello') return gep('a2aProtocol').sendHelloToHub();
  if (name === 'heartbeat') return gep('a2aProtocol').sendHeartbeat();
  if (name === 'search') return gep('hubSearch').hubSearch(JSON.parse(arg));
  if (name === 'verify-solidify') {
    // What `evolver solidify` asks first whenever a hub is configured.
    return gep('hubVerify').requestSolidifyPermit({ geneId: arg, signals: ['timeout'], mutation: { id: 'mut_test' } });
  }
  if (name === 'review') {
    // What `evolver solidify` sends after a cycle that reused a hub asset.
    const { assetId, geneId } = JSON.parse(arg);
    return gep('hubReview').submitHubReview({
      reusedAssetId: assetId,
      sourceType: 'reused',
      outcome: { status: 'success', score: 0.9 },
      gene: { id: geneId, category: 'repair' },
      signals: ['timeout'],
      blast: { files: 1, lines: 24 },
    });
  }
  if (name === 'report') {
    const { assetId, geneId } = JSON.parse(arg);
    const protocol = gep('a2aProtocol');
    const message = protocol.buildReport({
      assetId,
      localId: geneId,
      validationReport: { overall_ok: true, commands_passed: 1, commands_total: 1 },
    });
    return protocol.httpTransportSend(message, { hubUrl: process.env.A2A_HUB_URL });
  }
  throw new Error(`unknown step ${name}`);
}

step(process.argv[2], process.argv[3]).then(
  (result) => {
    process.stdout.write('\nRESULT ' + JSON.stringify(result === undefined ? null : result) + '\n');
    process.exit(0);
  },
  (error) => {
    process.stdout.write('\nRESULT ' + JSON.stringify({ thrown: String(error && error.message) }) + '\n');
    process.exit(1);
  },
);
