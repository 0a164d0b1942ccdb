import type { CallerContext } from '../../../context.js';
import type { Deps } from '../../../deps.js';
import { fail } from '../../../errors.js';
import { newRuuid } from '../../../ids.js';
import { write, type WriteScope } from '../../../bus/write.js';
import type { ClipDeps } from '../clips/service.js';
import type { ClipGroupRecord, CreateClipGroupRequest, UpdateClipGroupRequest } from './schemas.js';
import * as store from './store.js';
import { clipsNamed, sharedClip, sharedClipWithDetails } from '../shared-clip-groups/service.js';
import type { ClipGroupsTable, SavedClipsTable } from '../tables.js';

/** The stream's entity name of a clip group change. */
export const CLIP_GROUP_ENTITY = 'CLIP_GROUP';
const GROUP = 'Clip group';

type Db = Parameters<typeof store.findGroup>[0];

function groupRecord(row: ClipGroupsTable, clips: readonly SavedClipsTable[]): ClipGroupRecord {
  return {
    uuid: row.uuid,
    orgUuid: row.org_uuid,
    title: row.title,
    description: row.description,
    createdAtMillis: Number(row.created_at_ms),
    clipCount: clips.length,
    clips: clips.map(sharedClip),
  };
}

/** Each group with its clips in its order: one query for all of them. */
async function withClips(db: Db, rows: readonly ClipGroupsTable[]): Promise<Array<{ row: ClipGroupsTable; clips: SavedClipsTable[] }>> {
  const byGroup = new Map<string, SavedClipsTable[]>();
  if (rows.length > 0) {
    for (const { group_uuid, ...clip } of await store.listGroupClips(
      db,
      rows[0].org_uuid,
      rows.map((r) => r.uuid),
    )) {
      const clips = byGroup.get(group_uuid);
      if (clips) clips.push(clip);
      else byGroup.set(group_uuid, [clip]);
    }
  }
  return rows.map((row) => ({ row, clips: byGroup.get(row.uuid) ?? [] }));
}

/** The saved clips of the writer's organization the request names, each once, in the order first named. */
async function chosenClips(w: WriteScope, refs: CreateClipGroupRequest['uuids']): Promise<string[]> {
  return [...new Set((await clipsNamed(w.tx, w.actor.orgUuid, refs ?? [])).map((c) => c.uuid))];
}

async function announce(w: WriteScope, row: ClipGroupsTable, type: 'CREATE' | 'UPDATE'): Promise<void> {
  const [group] = await withClips(w.tx, [row]);
  w.change({ entity: CLIP_GROUP_ENTITY, entityUuid: row.uuid, type, update: groupRecord(group.row, group.clips) });
}

/** createClipGroup: a folder of saved clips of the organization (named directly or by their alert); an unknown or another organization's clip is NOT_FOUND and nothing is made. */
export async function createClipGroup(deps: ClipDeps, ctx: CallerContext, input: CreateClipGroupRequest): Promise<{ uuid: string }> {
  return write(deps, ctx, async (w) => {
    const clipUuids = await chosenClips(w, input.uuids);
    const row: ClipGroupsTable = {
      uuid: newRuuid(),
      org_uuid: ctx.orgUuid,
      title: input.title ?? null,
      description: input.description ?? null,
      created_at_ms: w.nowMs,
      updated_at_ms: w.nowMs,
    };
    await store.insertGroup(w.tx, row);
    await store.replaceGroupClips(w.tx, ctx.orgUuid, row.uuid, clipUuids);
    await announce(w, row, 'CREATE');
    return { uuid: row.uuid };
  });
}

/** updateClipGroup: the title and description (null description: none), and, when `uuids` is given, the clips it holds from now on. */
export async function updateClipGroup(deps: ClipDeps, ctx: CallerContext, input: UpdateClipGroupRequest): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findGroup(w.tx, ctx.orgUuid, input.uuid);
    if (!row) throw fail('NOT_FOUND', GROUP);
    if (input.uuids != null) await store.replaceGroupClips(w.tx, ctx.orgUuid, row.uuid, await chosenClips(w, input.uuids));
    const values: Partial<ClipGroupsTable> = { updated_at_ms: w.nowMs };
    if (input.title != null) values.title = input.title;
    if (input.description !== undefined) values.description = input.description;
    await store.updateGroup(w.tx, ctx.orgUuid, row.uuid, values);
    await announce(w, { ...row, ...values }, 'UPDATE');
  });
}

/** deleteClipGroup: the group goes; its clips stay. The change carries the group as it was. */
export async function deleteClipGroup(deps: ClipDeps, ctx: CallerContext, uuid: string): Promise<void> {
  await write(deps, ctx, async (w) => {
    const row = await store.findGroup(w.tx, ctx.orgUuid, uuid);
    if (!row) throw fail('NOT_FOUND', GROUP);
    const [group] = await withClips(w.tx, [row]);
    if (!(await store.deleteGroup(w.tx, ctx.orgUuid, row.uuid))) throw fail('NOT_FOUND', GROUP);
    w.change({ entity: CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'DELETE', update: groupRecord(group.row, group.clips) });
  });
}

/** getClipGroupsForOrg: the organization's groups, newest first, each with its clips. */
export async function getClipGroupsForOrg(
  deps: Pick<Deps, 'store'>,
  ctx: CallerContext,
  range: { createdAfterMs?: number | null; createdBeforeMs?: number | null },
) {
  const rows = await store.listGroups(deps.store.db, ctx.orgUuid, range.createdAfterMs ?? null, range.createdBeforeMs ?? null);
  const found = await withClips(deps.store.db, rows);
  return {
    groups: found.map((g) => groupRecord(g.row, g.clips)),
    clipGroups: found.map((g) => ({ uuid: g.row.uuid, name: g.row.title, clipCount: g.clips.length })),
  };
}

export async function getClipGroupDetails(deps: Pick<Deps, 'store'>, ctx: CallerContext, uuid: string) {
  const row = await store.findGroup(deps.store.db, ctx.orgUuid, uuid);
  if (!row) throw fail('NOT_FOUND', GROUP);
  const [group] = await withClips(deps.store.db, [row]);
  return { ...groupRecord(row, group.clips), clips: group.clips.map(sharedClipWithDetails) };
}

/**
 * Takes a saved clip that is being deleted out of every group it sits in, inside the deleting write: each group
 * is announced (UPDATE) without it. A fixed number of queries, however many groups.
 */
export async function takeClipOutOfGroups(w: WriteScope, clip: SavedClipsTable): Promise<void> {
  const groupUuids = await store.groupsOfClip(w.tx, clip.org_uuid, clip.uuid);
  if (groupUuids.length === 0) return;
  await store.removeClipFromGroups(w.tx, clip.org_uuid, clip.uuid);
  await store.touchGroups(w.tx, clip.org_uuid, groupUuids, w.nowMs);
  for (const { row, clips } of await withClips(w.tx, await store.findGroups(w.tx, clip.org_uuid, groupUuids))) {
    w.change({ entity: CLIP_GROUP_ENTITY, entityUuid: row.uuid, type: 'UPDATE', update: groupRecord(row, clips) });
  }
}
