import assert from 'node:assert/strict';
import { before, it } from 'node:test';
import { runDuePrompts } from '../../../src/domains/chatbot/automation.service.js';
import { apiAs, useTestServer } from '../../helpers/api.js';
import { forEachDialect } from '../../helpers/dialects.js';
import { seedYaml, watchChanges } from '../../helpers/org-structure.js';
import type { TestOrg } from '../../helpers/server.js';
import { control } from '../control/admin.js';

/**
 * chatbot/submitChat and getChatRecord (the CLI), chatbot/automation/* (the MCP): chats answered by Gatehouse's
 * deterministic stand-in from the organization's records, and automated prompts that run on their schedule.
 */
forEachDialect('chatbot', (dialect) => {
  const server = useTestServer(dialect);
  let org: TestOrg;
  let other: TestOrg;
  const api = apiAs(server, () => org.apiKey, '/api/chatbot');
  const theirs = apiAs(server, () => other.apiKey, '/api/chatbot');
  const yaml = `
locations: [{name: Main}]
cameras: [{name: Lobby, location: Main}, {name: Garage, location: Main}]
`;
  before(async () => {
    org = await server().createOrg('Chatty');
    other = await server().createOrg('Other Chatty');
    const cameras = (await seedYaml(server(), org.orgUuid, yaml)).cameras!;
    await seedYaml(server(), other.orgUuid, yaml);
    assert.equal((await control(server(), '/simulate/connection', { device: cameras['Garage'], offline: true })).json.error, false);
    for (const minutesAgo of [30, 10]) {
      const r = await control(server(), '/simulate/alert', { device: cameras['Lobby'], trigger: 'MOTION_HUMAN', at: Date.now() - minutesAgo * 60_000 });
      assert.equal(r.json.error, false, r.text);
    }
  });

  it("answers from the organization's records, clause by clause, and says what it cannot answer", async () => {
    const watch = await watchChanges(server(), org.apiKey, org.orgUuid);
    try {
      const query = 'How many cameras are there? Which cameras are offline? How many alerts on the Lobby in the last 2 hours? Will it rain';
      const { chatRecordUuid } = await api.ok('submitChat', { query, contextId: 'cli-1' });
      const { chat } = await api.ok('getChatRecord', { recordUuid: chatRecordUuid });
      assert.equal(chat.query, query);
      assert.equal(chat.status, 'PARTIALLY_ANSWERED');
      assert.equal(chat.timeline[0].status, 'PARTIALLY_ANSWERED');
      assert.equal(typeof chat.timeline[0].description, 'string');
      assert.match(chat.response, /2 cameras \(1 online\)/);
      assert.match(chat.response, /1 of 2 cameras are offline: Garage/);
      assert.match(chat.response, /2 alerts were raised on Lobby in the last 2 hours; the latest: \S+ MOTION_HUMAN/);
      assert.match(chat.response, /cannot answer: "will it rain"/);
      await watch.waitFor((c) => c.entity === 'CHAT_RECORD' && c.entityUuid === chatRecordUuid && c.type === 'CREATE', 'the chat on the stream');
    } finally {
      await watch.close();
    }
    // The CLI sends its tool definitions before the question.
    const cli = await api.ok('submitChat', { query: '[TOOLS][{"name":"x","description":"a ] in text"}]How many cameras are there?' });
    const { chat } = await api.ok('getChatRecord', { recordUuid: cli.chatRecordUuid });
    assert.deepEqual([chat.status, chat.response], ['ANSWERED', 'The organization has 2 cameras (1 online): Garage, Lobby.']);
    assert.equal(
      (await api.ok('getChatRecord', { recordUuid: (await api.ok('submitChat', { query: 'Tell me a joke' })).chatRecordUuid })).chat.status,
      'NO_RESPONSE',
    );
  });

  it('runs an automated prompt on its schedule, keeps its history, and keeps, lists, updates, shares and deletes it', async () => {
    const hour = 3_600_000;
    const created = (
      await api.ok('automation/createAutomatedPrompt', {
        settings: {
          prompt: 'How many alerts today?',
          invokeAtMs: Date.now() - hour - 1000,
          frequency: { frequency: 1, unit: 'HOURS' },
          responseTemplate: 'Daily: {{answer}}',
        },
      })
    ).settings;
    assert.deepEqual((await api.ok('automation/getAutomatedPrompt', { promptUuid: created.uuid })).settings, created);
    assert.deepEqual(await api.ok('automation/verifyJobScheduled', { promptUuid: created.uuid }), {
      error: false,
      scheduleExpression: 'rate(1 hour)',
      scheduleTimezone: 'UTC',
    });
    // Due (its first run is past): one run, then not again until its next hour.
    await runDuePrompts(server().gatehouse.deps);
    await runDuePrompts(server().gatehouse.deps);
    const history = await api.ok('automation/getAutomatedPromptChatHistory', { promptUuid: created.uuid });
    assert.equal(history.chatHistory.length, 1);
    const run = history.chatHistory[0];
    assert.equal(run.automatedPromptUuid, created.uuid);
    assert.match(run.response, /^Daily: (No alerts were|\d+ alerts? w(as|ere)) raised/);
    const next = (await api.ok('automation/getAutomatedPrompt', { promptUuid: created.uuid })).settings.nextRunAtMs;
    assert.ok(next > Date.now() && next <= Date.now() + hour, 'the next run is within the hour');

    const shared = await api.ok('automation/shareAutomatedPromptResponse', { chatUuid: run.uuid, privacy: { visibility: 'ORG' } });
    assert.equal(shared.chat.privacy.visibility, 'ORG');
    assert.equal((await api.ok('getChatRecord', { recordUuid: run.uuid })).chat.privacy.visibility, 'ORG');

    const second = (await api.ok('automation/createAutomatedPrompt', { settings: { prompt: 'Which cameras are offline?', invokeAtMs: Date.now() + hour } }))
      .settings;
    const updated = (await api.ok('automation/updateAutomatedPrompt', { selectiveUpdate: { uuid: second.uuid, frequency: { frequency: 2, unit: 'DAYS' } } }))
      .settings;
    assert.deepEqual([updated.prompt, updated.frequency], ['Which cameras are offline?', { frequency: 2, unit: 'DAYS' }]);
    const first = await api.ok('automation/getAutomatedPromptsForOrg', { maxPageSize: 1 });
    assert.equal(first.settingsList.length, 1);
    const rest = await api.ok('automation/getAutomatedPromptsForOrg', { maxPageSize: 1, lastEvaluatedKey: first.lastEvaluatedKey });
    assert.deepEqual([...first.settingsList, ...rest.settingsList].map((p: any) => p.uuid).sort(), [created.uuid, second.uuid].sort());
    assert.equal(rest.lastEvaluatedKey ?? null, null);

    await api.ok('automation/deleteAutomatedPrompt', { promptUuid: created.uuid });
    assert.equal(await api.refused('automation/getAutomatedPrompt', { promptUuid: created.uuid }), 'Automated prompt not found');
    assert.equal(await api.refused('getChatRecord', { recordUuid: run.uuid }), 'Chat record not found');
  });

  it("answers another organization's chats and prompts as unknown, changing nothing; refuses a prompt without text (400)", async () => {
    const mine = (await api.ok('automation/createAutomatedPrompt', { settings: { prompt: 'How many doors?', invokeAtMs: Date.now() + 3_600_000 } })).settings;
    const chat = (await api.ok('submitChat', { query: 'How many cameras?' })).chatRecordUuid;
    assert.equal(await theirs.refused('getChatRecord', { recordUuid: chat }), 'Chat record not found');
    assert.equal(await theirs.refused('automation/getAutomatedPrompt', { promptUuid: mine.uuid }), 'Automated prompt not found');
    assert.equal(
      await theirs.refused('automation/updateAutomatedPrompt', { selectiveUpdate: { uuid: mine.uuid, prompt: 'Hijacked' } }),
      'Automated prompt not found',
    );
    assert.equal(await theirs.refused('automation/deleteAutomatedPrompt', { promptUuid: mine.uuid }), 'Automated prompt not found');
    assert.equal(await theirs.refused('automation/getAutomatedPromptChatHistory', { promptUuid: mine.uuid }), 'Automated prompt not found');
    assert.equal((await api.ok('automation/getAutomatedPrompt', { promptUuid: mine.uuid })).settings.prompt, 'How many doors?');
    assert.deepEqual((await theirs.ok('automation/getAutomatedPromptsForOrg', {})).settingsList, []);
    const bad = await api.call('automation/createAutomatedPrompt', { settings: { invokeAtMs: 1 } });
    assert.equal(bad.status, 400);
    assert.match(bad.json.errorMsg, /prompt/);
  });
});
