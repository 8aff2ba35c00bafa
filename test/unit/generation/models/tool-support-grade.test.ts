import { describe, expect, it } from 'vitest';
import { DynamicModelRegistry } from '../../../../src/generation/models/dynamic-model-registry.js';
import { ModelRegistryError } from '../../../../src/generation/models/parse-model-registry.js';

/* Issue 26: the interface grades provider tool support full, partial or limited; the registry carries it per model. */

const registry = (models: unknown) => DynamicModelRegistry.fromJson({ version: '1', models });

describe('tool-support grade per model', () => {
  it('grades by provider and the functionCalling capability when the file says nothing', () => {
    const models = registry([
      { id: 'gpt-x', provider: 'openai', capabilities: ['function-calling'] },
      { id: 'mistral-x', provider: 'mistral', capabilities: ['functionCalling'] },
      { id: 'llama-x', provider: 'ollama', capabilities: ['functionCalling'] },
      { id: 'embed-x', provider: 'openai', capabilities: ['embeddings'] },
    ]);
    expect(models.getModelConfig('gpt-x')?.toolSupport).toBe('full');
    expect(models.getModelConfig('mistral-x')?.toolSupport).toBe('partial');
    expect(models.getModelConfig('llama-x')?.toolSupport).toBe('partial');
    expect(models.getModelConfig('embed-x')?.toolSupport).toBe('limited');
  });

  it('takes the file own toolSupport and refuses an unknown grade', () => {
    expect(registry([{ id: 'm', provider: 'ollama', capabilities: ['functionCalling'], toolSupport: 'full' }]).getModelConfig('m')?.toolSupport).toBe('full');
    expect(() => registry([{ id: 'm', provider: 'ollama', toolSupport: 'some' }])).toThrow(ModelRegistryError);
    expect(() => registry([{ id: 'm', provider: 'ollama', toolSupport: 'some' }])).toThrow(/toolSupport must be one of full, partial, limited/);
  });

  it('grades every model of the shipped registry', () => {
    const grades = new Set(
      DynamicModelRegistry.shipped()
        .getAllModels()
        .map((model) => model.toolSupport),
    );
    expect([...grades].every((grade) => ['full', 'partial', 'limited'].includes(grade))).toBe(true);
    expect(DynamicModelRegistry.shipped().getModelConfig('gpt-4o')?.toolSupport).toBe('full');
  });
});
