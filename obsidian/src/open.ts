// Opening a citation's passage in the vault: the note in a tab, the cited
// sentence selected and scrolled into view.

import { App, MarkdownView, TFile } from "obsidian";
import { Target, locate, Place } from "./target";

/**
 * noteFile finds the note the server calls path: the same path in the
 * vault, or, when the server indexed a folder of it, the one note whose
 * path ends with it.
 */
export function noteFile(app: App, path: string): TFile | null {
  const f = app.vault.getAbstractFileByPath(path);
  if (f instanceof TFile) return f;
  const tail = "/" + path;
  const matches = app.vault.getFiles().filter((file) => file.path.endsWith(tail));
  return matches.length === 1 ? matches[0] : null;
}

/** openTarget opens target's note and selects its passage; it resolves to where the selection is, or null when the note is not in the vault. */
export async function openTarget(app: App, target: Target): Promise<Place | null> {
  const file = noteFile(app, target.path);
  if (!file) return null;
  const leaf = app.workspace.getLeaf(false);
  await leaf.openFile(file, { active: true });
  const view = leaf.view instanceof MarkdownView ? leaf.view : app.workspace.getActiveViewOfType(MarkdownView);
  if (!view || view.file?.path !== file.path) return { from: 0, to: 0, line: 0, by: "none" };
  const editor = view.editor;
  const place = locate(editor.getValue(), target);
  const from = editor.offsetToPos(place.from);
  const to = editor.offsetToPos(place.to);
  editor.setSelection(from, to);
  editor.scrollIntoView({ from, to }, true);
  return place;
}
