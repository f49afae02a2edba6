// One actor per branch, one operation at a time so the model knows the order: single and bulk row writes (system
// and generated REST), refused writes, commits, reverts, schema changes, branch creation, short-lived branches that are
// written and deleted, and reads with
// X-Strata-Min-Position. Acknowledged writes must be readable at once with their position.
import { isOk, isUnknown, type Reply } from './client.ts';
import { cloneRows, cloneTables, expectWrite, maxPosition, type BranchModel } from './branchModel.ts';
import { positionOf, settledRead, sleep, type ChaosContext } from './context.ts';
import type { Random } from './random.ts';
import { branchPath, PROJECT, readRowsPage, rowsDigest, TABLE } from './setup.ts';

export type BranchActorState = {
  readonly model: BranchModel;
  /** Row ids of refused writes: they must never appear anywhere. */
  readonly refused: Set<string>;
  /** Committed revision id → digest of its first page of rows, position to read it with. */
  readonly committed: Map<string, { digest: string; position: string }>;
  /** Branches created from this one's HEAD, with the rows they must hold. */
  readonly children: BranchModel[];
};

const WEIGHTS = { create: 28, bulk: 12, update: 14, refused: 5, commit: 7, revert: 4, schema: 5, branch: 2, scratch: 2, read: 13, recheck: 10 };
const MAX_CHILD_BRANCHES = 6;

/** Whether the draft may equal HEAD: every difference between them comes from writes with unknown outcomes. */
function mayEqualHead(model: BranchModel): boolean {
  for (const [id, row] of model.draft) {
    const head = model.head.get(id);
    if (!row.maybe && !(head && [...row.values].some((v) => head.values.has(v)))) return false;
  }
  for (const [id, props] of model.draftTables) if (!props.has('?') && (model.headTables.get(id)?.size ?? -1) !== props.size) return false;
  return true;
}

export async function runBranchActor(ctx: ChaosContext, random: Random, state: BranchActorState): Promise<void> {
  const { model } = state;
  let next = 0;
  const newId = (): string => `${model.name}-${next++}`;
  const rowsPath = (revisionId: string): string => `/api/revision/${revisionId}/table/${TABLE}`;
  const generated = `/endpoint/rest/admin/${PROJECT}/${model.name}/draft/tables/${TABLE}/rows`;
  const minPos = (position: string): Record<string, string> => ({ ...ctx.auth, 'x-strata-min-position': position });

  function acknowledged(reply: Reply): void {
    model.position = maxPosition(model.position, positionOf(reply));
    ctx.recorder.count('writes:acknowledged');
  }

  async function readYourWrite(rowId: string, value: number, position: string | null): Promise<void> {
    if (position === null) return ctx.recorder.violation('writes-return-a-position', `write of ${rowId} had no X-Strata-Position`);
    const reply = await ctx.client.call(ctx.client.pick(random), 'GET', `${generated}/${rowId}`, { headers: minPos(position) });
    if (reply.status === 503 || reply.status === 0) return;
    ctx.recorder.count('checks:read-your-writes');
    const n = reply.body?.data?.n ?? reply.body?.n;
    if (reply.status !== 200 || n !== value) {
      ctx.recorder.violation(
        'read-your-writes',
        `GET ${rowId} with min position ${position} on ${reply.target}: ${reply.status} n=${String(n)}, wrote ${value}`,
      );
    }
  }

  async function write(ids: string[], values: number[], send: () => Promise<Reply>): Promise<void> {
    const reply = await send();
    model.touched = true;
    if (isOk(reply)) {
      acknowledged(reply);
      ids.forEach((id, i) => expectWrite(model.draft, id, values[i]!, true));
      ctx.recorder.count('rows:acknowledged', ids.length);
      const i = random.int(0, ids.length - 1);
      await readYourWrite(ids[i]!, values[i]!, positionOf(reply));
    } else if (isUnknown(reply)) {
      ids.forEach((id, i) => expectWrite(model.draft, id, values[i]!, false));
      ctx.recorder.count('rows:unknown-outcome', ids.length);
    } else {
      ctx.recorder.violation(
        'valid-writes-succeed',
        `write of ${ids.join(',')} on ${reply.target}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`,
      );
    }
  }

  const ops: Record<keyof typeof WEIGHTS, () => Promise<void>> = {
    async create() {
      const id = newId();
      const n = random.int(0, 1_000_000);
      const viaGenerated = random.next() < 0.5;
      await write([id], [n], () =>
        viaGenerated
          ? ctx.client.call(ctx.client.pick(random), 'POST', generated, { headers: ctx.auth, body: { id, data: { n } } })
          : ctx.client.call(ctx.client.pick(random), 'POST', `${rowsPath(model.draftId)}/rows`, {
              headers: ctx.auth,
              body: { rowId: id, data: { n } },
            }),
      );
    },
    async bulk() {
      const ids = Array.from({ length: random.int(2, 20) }, newId);
      const values = ids.map(() => random.int(0, 1_000_000));
      const rows = ids.map((rowId, i) => ({ rowId, data: { n: values[i] } }));
      await write(ids, values, () =>
        ctx.client.call(ctx.client.pick(random), 'POST', `${rowsPath(model.draftId)}/rows/bulk`, { headers: ctx.auth, body: { rows } }),
      );
    },
    async update() {
      const candidates = [...model.draft.keys()];
      if (candidates.length === 0) return ops.create();
      const id = random.pick(candidates);
      if (model.draft.get(id)?.maybe) return; // an update of a row that may not exist could be refused
      const n = random.int(0, 1_000_000);
      await write([id], [n], () =>
        ctx.client.call(ctx.client.pick(random), 'PUT', `${rowsPath(model.draftId)}/row/${id}`, { headers: ctx.auth, body: { data: { n } } }),
      );
    },
    async refused() {
      const ids = Array.from({ length: random.int(1, 5) }, newId);
      ids.forEach((id) => state.refused.add(id));
      const rows = ids.map((rowId, i) => ({ rowId, data: { n: i === ids.length - 1 ? 'not a number' : i } }));
      const reply = await ctx.client.call(ctx.client.pick(random), 'POST', `${rowsPath(model.draftId)}/rows/bulk`, {
        headers: ctx.auth,
        body: { rows },
      });
      if (reply.status === 400) ctx.recorder.count('writes:refused');
      else if (!isUnknown(reply)) ctx.recorder.violation('invalid-writes-refused', `bulk with an invalid row answered ${reply.status}`);
    },
    async commit() {
      if (!model.touched) return;
      const previousHead = model.headId;
      const reply = await ctx.client.call(ctx.client.pick(random), 'POST', `${branchPath(model.name)}/revisions`, {
        headers: ctx.auth,
        body: { comment: 'chaos' },
      });
      let committed: boolean;
      if (isOk(reply)) {
        acknowledged(reply);
        committed = true;
      } else if (isUnknown(reply)) {
        const branch = await settledRead(ctx, random, branchPath(model.name), `commit on ${model.name}`);
        if (!branch || branch.status !== 200) return stop('commit outcome unknown');
        committed = branch.body.headRevisionId !== previousHead;
        ctx.recorder.count('commits:resolved-after-unknown-outcome');
      } else if (reply.body?.code === 'NO_CHANGES' && mayEqualHead(model)) {
        model.touched = false; // every write since the last commit or revert had an unknown outcome and did not happen
        return;
      } else {
        return ctx.recorder.violation('valid-writes-succeed', `commit on ${model.name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
      }
      if (!committed) return;
      ctx.recorder.count('commits:acknowledged');
      model.head = cloneRows(model.draft);
      model.headTables = cloneTables(model.draftTables);
      model.touched = false;
      await refreshBranch(previousHead);
      const snapshot = await readRowsPage(ctx, ctx.client.pick(random), model.headId, model.position);
      if (snapshot) state.committed.set(model.headId, { digest: rowsDigest(snapshot), position: model.position });
    },
    async revert() {
      if (!model.touched) return;
      const reply = await ctx.client.call(ctx.client.pick(random), 'POST', `${branchPath(model.name)}/revert`, { headers: ctx.auth });
      let reverted: boolean;
      if (isOk(reply)) {
        acknowledged(reply);
        reverted = true;
      } else if (isUnknown(reply)) {
        const branch = await settledRead(ctx, random, branchPath(model.name), `revert on ${model.name}`);
        if (!branch || branch.status !== 200) return stop('revert outcome unknown');
        reverted = branch.body.touched === false;
      } else if (reply.body?.code === 'NO_CHANGES' && mayEqualHead(model)) {
        reverted = true; // the writes since the last commit had unknown outcomes and did not happen
      } else {
        return ctx.recorder.violation('valid-writes-succeed', `revert on ${model.name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
      }
      if (!reverted) return;
      ctx.recorder.count('reverts:acknowledged');
      model.draft = cloneRows(model.head);
      model.draftTables = cloneTables(model.headTables);
      model.touched = false;
      await refreshBranch(null);
    },
    async schema() {
      const existing = [...model.draftTables.keys()];
      model.touched = true;
      if (existing.length === 0 || random.next() < 0.3) {
        const tableId = `s_${model.name}_${next++}`;
        const schema = { type: 'object', additionalProperties: false, required: ['a'], properties: { a: { type: 'string', default: '' } } };
        const reply = await ctx.client.call(ctx.client.pick(random), 'POST', `/api/revision/${model.draftId}/tables`, {
          headers: ctx.auth,
          body: { tableId, schema },
        });
        if (isOk(reply)) {
          acknowledged(reply);
          model.draftTables.set(tableId, new Set(['a']));
        } else if (isUnknown(reply)) model.draftTables.set(tableId, new Set(['?']));
        else ctx.recorder.violation('valid-writes-succeed', `create table ${tableId}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
        return;
      }
      const tableId = random.pick(existing);
      const props = model.draftTables.get(tableId)!;
      if (props.has('?')) return; // its creation's outcome is unknown
      const prop = `p${next++}`;
      const patches = [{ op: 'add', path: `/properties/${prop}`, value: { type: 'number', default: 0 } }];
      const reply = await ctx.client.call(ctx.client.pick(random), 'PATCH', `/api/revision/${model.draftId}/table/${tableId}`, {
        headers: ctx.auth,
        body: { patches },
      });
      if (isOk(reply)) {
        acknowledged(reply);
        props.add(prop);
        ctx.recorder.count('schema-changes:acknowledged');
      } else if (isUnknown(reply)) props.add('?');
      else ctx.recorder.violation('valid-writes-succeed', `update table ${tableId}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
    },
    async branch() {
      if (state.children.length >= MAX_CHILD_BRANCHES || model.head.size === 0) return;
      if ([...model.head.values()].some((row) => row.maybe)) return;
      const name = `${model.name}-c${state.children.length}`;
      const reply = await ctx.client.call(ctx.client.pick(random), 'POST', `/api/revision/${model.headId}/branches`, {
        headers: ctx.auth,
        body: { branchName: name },
      });
      if (!isOk(reply)) {
        if (!isUnknown(reply))
          ctx.recorder.violation('valid-writes-succeed', `create branch ${name}: ${reply.status} ${JSON.stringify(reply.body).slice(0, 300)}`);
        return;
      }
      acknowledged(reply);
      ctx.recorder.count('branches:created');
      const head = cloneRows(model.head);
      const tables = cloneTables(model.headTables);
      const child: BranchModel = {
        name,
        draftId: reply.body.draftRevisionId,
        headId: reply.body.headRevisionId,
        draft: head,
        head: cloneRows(head),
        draftTables: tables,
        headTables: cloneTables(tables),
        touched: false,
        position: model.position,
      };
      state.children.push(child);
    },
    async scratch() {
      // A short-lived branch of HEAD: created, written once, deleted. Afterwards it is gone (404) and its name is
      // free; this branch's own rows are untouched (the other checks read them) - domain.md §3.6.
      if (model.head.size === 0 || [...model.head.values()].some((row) => row.maybe)) return;
      const name = `${model.name}-s${next++}`;
      const created = await ctx.client.call(ctx.client.pick(random), 'POST', `/api/revision/${model.headId}/branches`, {
        headers: ctx.auth,
        body: { branchName: name },
      });
      if (!isOk(created)) {
        if (!isUnknown(created))
          ctx.recorder.violation('valid-writes-succeed', `create branch ${name}: ${created.status} ${JSON.stringify(created.body).slice(0, 300)}`);
        return;
      }
      ctx.recorder.count('branches:created');
      const rowId = `${name}-row`;
      const written = await ctx.client.call(ctx.client.pick(random), 'POST', `${rowsPath(created.body.draftRevisionId)}/rows`, {
        headers: ctx.auth,
        body: { rowId, data: { n: 1 } },
      });
      if (!isOk(written) && !isUnknown(written)) {
        ctx.recorder.violation('valid-writes-succeed', `write on ${name}: ${written.status} ${JSON.stringify(written.body).slice(0, 300)}`);
      }
      const deleted = await ctx.client.call(ctx.client.pick(random), 'DELETE', branchPath(name), { headers: ctx.auth });
      if (isUnknown(deleted)) return;
      if (!isOk(deleted))
        return ctx.recorder.violation(
          'valid-writes-succeed',
          `delete branch ${name}: ${deleted.status} ${JSON.stringify(deleted.body).slice(0, 300)}`,
        );
      ctx.recorder.count('branches:deleted');
      const gone = await settledRead(ctx, random, branchPath(name), `deleted branch ${name}`);
      if (gone && gone.status !== 404) ctx.recorder.violation('deleted-branches-are-gone', `GET deleted branch ${name}: ${gone.status}`);
    },
    async read() {
      const reply = await ctx.client.call(ctx.client.pick(random), 'GET', `${rowsPath(model.draftId)}/rows?first=1`, {
        headers: minPos(model.position),
      });
      if (reply.status !== 200) return;
      ctx.recorder.count('checks:count-after-min-position');
      const certain = [...model.draft.values()].every((row) => !row.maybe);
      if (certain && reply.body.totalCount !== model.draft.size) {
        ctx.recorder.violation(
          'read-your-writes',
          `${model.name} draft lists ${reply.body.totalCount} rows at ${model.position} on ${reply.target}, expected ${model.draft.size}`,
        );
      }
    },
    async recheck() {
      const revisions = [...state.committed.keys()];
      if (revisions.length === 0) return;
      const revisionId = random.pick(revisions);
      const { digest, position } = state.committed.get(revisionId)!;
      const page = await readRowsPage(ctx, ctx.client.pick(random), revisionId, position);
      if (!page) return;
      ctx.recorder.count('checks:committed-revision-reread');
      if (rowsDigest(page) !== digest) ctx.recorder.violation('committed-revisions-never-change', `revision ${revisionId} of ${model.name} changed`);
    },
  };

  let stopped = false;
  function stop(why: string): void {
    stopped = true;
    ctx.recorder.count(`actors:stopped (${why})`);
  }

  async function refreshBranch(previousHead: string | null): Promise<void> {
    const branch = await settledRead(ctx, random, branchPath(model.name), `branch ${model.name} after commit/revert`);
    if (!branch || branch.status !== 200) return stop('branch unreadable');
    if (previousHead !== null && branch.body.headRevisionId === previousHead)
      ctx.recorder.violation('commits-move-head', `${model.name} HEAD did not move`);
    model.headId = branch.body.headRevisionId;
    model.draftId = branch.body.draftRevisionId;
  }

  while (ctx.running() && !stopped) {
    await ops[random.weighted(WEIGHTS)]();
    await sleep(ctx.pauseMs);
  }
}
