import { DEFAULT_PLAYGROUND_PARAMS, PlaygroundSessionState } from "@moonport/contracts";
import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import { fetchSession } from "../api/get-sessions.ts";
import { playgroundKeys } from "../api/query-keys.ts";
import { createSession, updateSession } from "../api/save-session.ts";
import { currentKey, read, store } from "../model/local-store.ts";
import { emptyState, hasFiles, newMessage, newPanel, titleOf } from "../model/session.ts";
import type { PlaygroundTemplate } from "../model/templates.ts";
import type { Notice } from "./workbench-notices.tsx";

type Change = (fn: (s: PlaygroundSessionState) => PlaygroundSessionState) => void;

/**
 * The playground session of a project: restored on reload, saved a moment after each change (so history and
 * reload always have it), and replaced by a new, a template's, an imported or a saved session. `resetRuns` stops
 * and clears the runs of the session being replaced.
 */
export function usePlaygroundSession(
  orgId: string,
  projectId: string,
  { resetRuns, onNotice }: { resetRuns: () => void; onNotice: (n: Notice | null) => void },
) {
  const { t } = useTranslation("playground");
  const [state, setState] = useState<PlaygroundSessionState>(() => emptyState());
  const [sessionId, setSessionId] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const dirty = useRef(false);

  useRestoreSession(
    orgId,
    projectId,
    (s) => {
      setState(s.state);
      setSessionId(s.id);
    },
    setLoading,
  );
  useAutosave(orgId, projectId, { state, loading, sessionId, dirty, onSaved: setSessionId, onNotice });

  const change: Change = useCallback((fn) => {
    dirty.current = true;
    setState(fn);
  }, []);

  /** Puts `next` in place of the current session; `id` null starts an unsaved one, saved on its first change. */
  const replace = (next: PlaygroundSessionState, id: string | null, unsaved: boolean) => {
    resetRuns();
    dirty.current = unsaved;
    setState(next);
    setSessionId(id);
    store(currentKey(projectId), id);
  };

  const openTemplate = (tpl: PlaygroundTemplate) => {
    const conversation = tpl.turns.map((role, i) => newMessage(role, t(`templates.${tpl.id}.messages.${i}`)));
    const panels = tpl.models.map((m) => ({
      ...newPanel(m, { ...DEFAULT_PLAYGROUND_PARAMS, ...tpl.params }),
      messages: tpl.mode === "compare" ? conversation.map((c) => ({ ...c, id: `${c.id}-${m}` })) : [],
    }));
    const next: PlaygroundSessionState = {
      version: 1,
      mode: tpl.mode,
      system: t(`templates.${tpl.id}.system`),
      panels,
      messages: tpl.mode === "compare" ? [] : conversation,
      tools: tpl.tools ?? [],
      readOnly: false,
      template: tpl.id,
    };
    replace(next, null, true);
  };

  const newSession = () => replace(emptyState(state.mode), null, false);

  const exportSession = () => {
    const blob = new Blob([JSON.stringify(state, null, 2)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = document.createElement("a");
    a.href = url;
    a.download = `playground-${new Date().toISOString().slice(0, 19).replaceAll(":", "-")}.json`;
    a.click();
    URL.revokeObjectURL(url);
  };

  const importSession = async (file: File | null) => {
    if (!file) return;
    let parsed: ReturnType<typeof PlaygroundSessionState.safeParse>;
    try {
      parsed = PlaygroundSessionState.safeParse(JSON.parse(await file.text()));
    } catch {
      onNotice({ color: "red", text: t("io.importInvalid") });
      return;
    }
    if (!parsed.success) {
      onNotice({ color: "red", text: t("io.importInvalid") });
      return;
    }
    // A session with files opens read-only: their content is not in the exported file.
    replace({ ...parsed.data, readOnly: parsed.data.readOnly || hasFiles(parsed.data) }, null, true);
    onNotice({ color: "teal", text: t("io.imported") });
  };

  /** Opens a saved session; false (with a notice) when it could not be loaded. */
  const openSession = async (id: string): Promise<boolean> => {
    try {
      const s = await fetchSession(orgId, projectId, id);
      replace(s.state, s.id, false);
      return true;
    } catch (e) {
      onNotice({ color: "red", text: t("errors.loadFailed", { reason: (e as Error).message }) });
      return false;
    }
  };

  return { state, sessionId, loading, change, openTemplate, newSession, exportSession, importSession, openSession };
}

/** Reload restores the current session of this project. */
function useRestoreSession(
  orgId: string,
  projectId: string,
  onRestored: (s: { id: string; state: PlaygroundSessionState }) => void,
  setLoading: (v: boolean) => void,
) {
  const restored = useRef(onRestored);
  restored.current = onRestored;
  useEffect(() => {
    const id = read(currentKey(projectId));
    if (!id) {
      setLoading(false);
      return;
    }
    fetchSession(orgId, projectId, id)
      .then((s) => restored.current(s))
      .catch(() => store(currentKey(projectId), null))
      .finally(() => setLoading(false));
  }, [orgId, projectId, setLoading]);
}

/** Saves a moment after the last change (and after each run); the first save creates the session. */
function useAutosave(
  orgId: string,
  projectId: string,
  {
    state,
    loading,
    sessionId,
    dirty,
    onSaved,
    onNotice,
  }: {
    state: PlaygroundSessionState;
    loading: boolean;
    sessionId: string | null;
    dirty: { current: boolean };
    onSaved: (id: string) => void;
    onNotice: (n: Notice) => void;
  },
) {
  const { t } = useTranslation("playground");
  const qc = useQueryClient();
  const saving = useRef<Promise<unknown> | null>(null);
  useEffect(() => {
    if (!dirty.current || loading) return;
    if (!state.messages.length && !state.panels.some((p) => p.messages.length) && !state.template) return;
    const timer = setTimeout(() => {
      dirty.current = false;
      const snapshot = PlaygroundSessionState.safeParse(state);
      if (!snapshot.success) return;
      const run = async () => {
        await saving.current;
        if (sessionId) {
          await updateSession(orgId, projectId, sessionId, { state: snapshot.data });
        } else {
          const created = await createSession(orgId, projectId, {
            title: titleOf(snapshot.data, t("untitled")),
            state: snapshot.data,
          });
          onSaved(created.id);
          store(currentKey(projectId), created.id);
        }
        await qc.invalidateQueries({ queryKey: playgroundKeys.sessions(orgId, projectId) });
      };
      saving.current = run().catch((e: Error) =>
        onNotice({ color: "red", text: t("errors.saveFailed", { reason: e.message }) }),
      );
    }, 700);
    return () => clearTimeout(timer);
  }, [state, loading, sessionId, orgId, projectId, qc, t, dirty, onSaved, onNotice]);
}
