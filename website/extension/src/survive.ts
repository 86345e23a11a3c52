/**
 * A notebook the learner saved, opened after the site published a newer version of it, says so in
 * the notice bar (notice.ts), with the home page's three answers (mywork/parts.ts): keep mine,
 * update (my exercise code carried over, my notebook kept as a copy beside it), reset this part.
 * Which version a notebook is comes from the build (mywork/carry.ts says how).
 */

import { PageConfig, URLExt } from '@jupyterlab/coreutils';
import type { Contents } from '@jupyterlab/services';

import { partState } from './mywork/carry';
import { keepMine, reset, update } from './mywork/parts';
import type { IDone, IFiles } from './mywork/parts';
import { onEveryNotebook } from './notebooks';
import { notice } from './notice';


/** IFiles over JupyterLab's contents manager (JupyterLite's drive, so the browser's storage). */
function contentsFiles(contents: Contents.IManager): IFiles {
  return {
    notebook: (path) => contents.get(path, { content: true, type: 'notebook' }).then((m) => m.content, () => null),
    saveNotebook: async (path, notebook) => {
      await contents.save(path, { type: 'notebook', format: 'json', content: notebook });
    },
    paths: async (dir = '') => ((await contents.get(dir, { content: true })).content as any[]).map((m) => m.path),
  };
}

let versions: Promise<Record<string, string>> | null = null;
const base = () => PageConfig.getBaseUrl();

/** The published notebooks' versions, from the site's manifest (website/mywork.py); {} if none. */
function published(): Promise<Record<string, string>> {
  versions ??= fetch(URLExt.join(base(), 'mywork/published.json'), { cache: 'no-cache' })
    .then((r): Promise<any> => (r.ok ? r.json() : Promise.resolve({})))
    .then((site) => site.notebooks ?? {}, () => ({}));
  return versions;
}

export const newerPublished = onEveryNotebook(
  '@agent-team/site-extension:newer-published',
  'Says when the site has published a newer version of a notebook the learner saved.',
  (context, model, app) => {
    context.ready.then(async () => {
      const path = context.path;
      const hash = (await published())[path];
      if (!hash || partState(model.toJSON(), hash) !== 'newer') {
        return;
      }
      const files = contentsFiles(app.serviceManager.contents);
      const fetchPublished = async () => {
        const url = URLExt.join(base(), 'files', ...path.split('/').map(encodeURIComponent));
        const response = await fetch(url, { cache: 'no-cache' });
        if (!response.ok) {
          throw new Error(`the published ${path} could not be fetched (${response.status})`);
        }
        return response.json();
      };
      // The learner's latest edits are saved first, so they are what the copy keeps; the
      // notebook is then read again from what was written.
      const answer = (act: () => Promise<IDone>) => async () => {
        if (model.dirty) {
          await context.save();
        }
        const done = await act();
        await context.revert();
        return done.message;
      };
      notice(`The site has published a newer version of ${path} since you saved yours.`, 'warning', [
        { label: 'Keep mine', run: answer(() => keepMine(files, path, hash)) },
        { label: 'Update (keeps a copy of mine)', run: answer(async () => update(files, path, await fetchPublished())) },
        { label: 'Reset this part (keeps a copy)', run: answer(async () => reset(files, path, await fetchPublished())) },
      ]);
    }, () => {});
  },
);
