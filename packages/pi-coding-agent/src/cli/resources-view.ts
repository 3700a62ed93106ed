// `tiny-pi resources`: what a run in this workspace would load and from where, in precedence
// order, which resource shadowed which, and each extension's trust. It reads front matter only:
// no skill body, and no extension is imported.

import type { RunResources } from "../host/run-resources.js";
import type { TrustRecord } from "../host/trust-record.js";
import type { Resource, ResourceRoot } from "../index.js";

const ROOT_LABEL: Record<ResourceRoot["kind"], string> = { global: "全局", ancestor: "上级目录", workspace: "工作区" };

export function resourcesText(resources: RunResources, trust: TrustRecord, contextFiles: boolean): string {
  const where = (resource: Resource) => `${resource.path}（${ROOT_LABEL[resource.root.kind]}）`;
  const lines = ["根（按优先级从低到高；同名的技能、模板、扩展，后面的根胜出）："];
  for (const root of resources.roots) lines.push(`  ${ROOT_LABEL[root.kind]}  ${root.dir}`);
  const section = (title: string, items: string[]) => {
    lines.push(title);
    lines.push(...(items.length === 0 ? ["  （无）"] : items.map((item) => `  ${item}`)));
  };
  section(
    contextFiles ? "上下文文件（按这个顺序进入系统提示）：" : "上下文文件（--no-context-files：不进入系统提示）：",
    resources.catalogue.contextFiles.map(where),
  );
  section(
    "技能（系统提示里只列名字、说明与位置；正文在激活时才读）：",
    resources.skills.map((skill) => `${skill.name} — ${skill.description ?? ""} · ${where(skill)}`),
  );
  section(
    "提示模板（/名字 参数）：",
    resources.templates.map((template) => `/${template.name} · ${where(template)}`),
  );
  section(
    "扩展：",
    resources.extensions.map(
      (extension) =>
        `${extension.name} · ${where(extension)} · ${trust.trusted(extension.path) ? "已信任（路径与内容未变）" : "未信任：在终端里运行时会询问，否则要 --trust-extensions"}`,
    ),
  );
  section(
    "被遮蔽：",
    resources.catalogue.shadowed.map(
      ({ winner, shadowed }) => `${shadowed.kind} ${shadowed.name}：${where(shadowed)} 被 ${where(winner)} 遮蔽`,
    ),
  );
  if (resources.problems.length > 0) section("问题：", resources.problems);
  return lines.join("\n");
}
