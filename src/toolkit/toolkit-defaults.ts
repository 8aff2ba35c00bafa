import type { FileSystem } from '../ports/file-system.js';
import type { ToolDefinition } from '../generation/tool-definition.js';
import { loadDefaultModelRegistry } from '../generation/models/dynamic-model-registry.js';
import { createBuiltInTools } from '../generation/tools/built-in-tools.js';
import type { ModelRegistryView } from './model-registry-view.js';

/** The six built-in tools, file tools confined to `root` (reached through `fileSystem`), writeFile gated by confirmation. */
export function defaultBuiltInTools(root: string, fileSystem: FileSystem): readonly ToolDefinition[] {
  return createBuiltInTools({ root, fileSystem });
}

/** The model registry from `<cwd>/config/models.json` (else the shipped one); a malformed local file throws naming it. */
export function defaultModelRegistry(cwd: string, fileSystem: FileSystem): ModelRegistryView {
  return loadDefaultModelRegistry(fileSystem, cwd);
}
