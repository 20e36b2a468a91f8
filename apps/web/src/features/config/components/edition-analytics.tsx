import { useEffect } from "react";
import { useConfig } from "../api/get-config.ts";

/**
 * Adds the edition's analytics tags (CN_ANALYTICS / GLOBAL_ANALYTICS) once /api/config has answered. They are
 * operator configuration, not user input; each tag is added once per page load.
 */
export function EditionAnalytics() {
  const config = useConfig();
  const tags = config?.edition.analytics;
  useEffect(() => {
    if (!tags?.length) return;
    for (const [i, tag] of tags.entries()) {
      const id = `mp-analytics-${i}`;
      if (document.getElementById(id)) continue;
      const script = document.createElement("script");
      script.id = id;
      if (tag.src) {
        script.src = tag.src;
        script.async = true;
      } else if (tag.inline) {
        script.text = tag.inline;
      } else continue;
      document.head.appendChild(script);
    }
  }, [tags]);
  return null;
}
