import type { FileSystem } from '../../ports/file-system.js';
import type { ToolDefinition } from '../../generation/tool-definition.js';
import { loadDefaultModelRegistry, type DynamicModelRegistry } from '../../generation/models/dynamic-model-registry.js';
import { createBuiltInTools, type BuiltInToolsOptions } from '../../generation/tools/built-in-tools.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

/*
 * The library's file-reaching entry points over node:fs, as DefaultNeuroLink is the toolkit over
 * the shipped adapters: a library user calls `createBuiltInTools({ root })` and
 * `loadDefaultModelRegistry(cwd)` as before, while the domain functions take the FileSystem port.
 */

/** Options of the library's `createBuiltInTools`: the domain's, with `fileSystem` defaulting to node:fs. */
export type DefaultBuiltInToolsOptions = Omit<BuiltInToolsOptions, 'fileSystem'> & { readonly fileSystem?: FileSystem };

/** The six built-in tools; file tools reach the disk through node:fs unless `options.fileSystem` says otherwise. */
export function createDefaultBuiltInTools(options: DefaultBuiltInToolsOptions): ToolDefinition[] {
  return createBuiltInTools({ ...options, fileSystem: options.fileSystem ?? nodeFileSystem });
}

/** `<cwd>/config/models.json` read from disk when it exists, else the shipped registry. */
export function loadDefaultModelRegistryFromDisk(cwd?: string): DynamicModelRegistry {
  return loadDefaultModelRegistry(nodeFileSystem, cwd);
}
