import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidRequestError } from '../../../../src/generation/errors/provider-errors.js';
import { UserConfirmationRequiredError } from '../../../../src/generation/errors/user-confirmation-required-error.js';
import { executeTool, wrapWithConfirmation } from '../../../../src/generation/tools/confirmation.js';
import { createTool, validateTool, type SimpleTool } from '../../../../src/generation/tools/create-tool.js';

const context = { toolCallId: 'c1' };
const weather: SimpleTool = {
  description: 'Get the weather for a city',
  parameters: z.object({ city: z.string().min(1), days: z.number().int().positive().default(1) }),
  execute: async (args: { city: string; days: number }) => ({ success: true, city: args.city, days: args.days }),
};

describe('validateTool', () => {
  it.each([
    ['a', /2 to 50 characters/],
    ['x'.repeat(51), /2 to 50 characters/],
    ['has space', /only letters, digits/],
    ['drop;table', /only letters, digits/],
    ['Admin', /"Admin" is reserved/],
    ['neurolink', /reserved/],
  ])('refuses the name %s', (name, message) => {
    expect(() => validateTool(name, weather)).toThrow(message);
    expect(() => validateTool(name, weather)).toThrow(InvalidRequestError);
  });

  it('names the field at fault', () => {
    expect(() => validateTool('weather', { ...weather, description: 'short' })).toThrow('tool "weather" needs a description of at least 10 characters');
    expect(() => validateTool('weather', { description: weather.description, schema: z.object({}), execute: weather.execute })).toThrow(
      'tool "weather" uses "schema"; name its input schema "parameters"',
    );
    expect(() => validateTool('weather', { description: weather.description })).toThrow('tool "weather" needs an execute function');
    expect(() => validateTool('weather', { ...weather, parameters: 'string' })).toThrow(/parameters must be a zod schema or a JSON Schema object/);
    expect(() => validateTool('weather', null)).toThrow(/must be an object/);
    try {
      validateTool('weather', { ...weather, description: 'short' });
    } catch (error) {
      expect((error as InvalidRequestError).option).toBe('description');
    }
  });
});

describe('createTool', () => {
  it('turns a zod tool into a custom ToolDefinition that validates and defaults args', async () => {
    const tool = createTool('get-weather', weather);
    expect(tool).toMatchObject({ name: 'get-weather', source: 'custom', description: 'Get the weather for a city' });
    expect(tool.inputSchema).toMatchObject({ type: 'object', properties: { city: { type: 'string' } } });
    expect(await tool.execute({ city: 'Pune' }, context)).toEqual({ success: true, city: 'Pune', days: 1 });
    const bad = (await tool.execute({ city: '' }, context)) as { success: boolean; error: string };
    expect(bad.success).toBe(false);
    expect(bad.error).toMatch(/^invalid arguments for get-weather: city: /);
  });

  it('accepts a JSON Schema (draft-07 $schema included) and validates with it', async () => {
    const tool = createTool('add_numbers', {
      description: 'Adds two numbers together',
      parameters: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: { a: { type: 'number' }, b: { type: 'number' } },
        required: ['a', 'b'],
      },
      execute: (args: { a: number; b: number }) => ({ success: true, sum: args.a + args.b }),
    });
    expect(await tool.execute({ a: 2, b: 3 }, context)).toEqual({ success: true, sum: 5 });
    expect(await tool.execute({ a: 2 }, context)).toEqual({
      success: false,
      error: "invalid arguments for add_numbers: (root) must have required property 'b'",
    });
    expect(() => createTool('broken', { description: 'A broken schema tool', parameters: { type: 'nonsense' }, execute: () => 1 })).toThrow(
      /not a valid JSON Schema/,
    );
  });

  it('turns a throwing execute into a failure result', async () => {
    const tool = createTool('thrower', {
      description: 'Always throws an error',
      execute: () => {
        throw new Error('boom');
      },
    });
    expect(await tool.execute({}, context)).toEqual({ success: false, error: 'boom' });
  });

  it('gates requiresConfirmation tools', async () => {
    let runs = 0;
    const tool = createTool('delete-all', {
      description: 'Deletes everything for real',
      requiresConfirmation: true,
      execute: () => ({ success: true, run: ++runs }),
    });
    expect(tool.requiresConfirmation).toBe(true);
    expect(await tool.execute({}, context)).toEqual({ success: false, error: 'USER_CONFIRMATION_REQUIRED' });
    expect(await tool.execute({}, { ...context, confirmedTools: new Set(['other']) })).toEqual({ success: false, error: 'USER_CONFIRMATION_REQUIRED' });
    expect(runs).toBe(0);
    await expect(executeTool(tool, {})).rejects.toThrow(UserConfirmationRequiredError);
    expect(await tool.execute({}, { ...context, confirmedTools: new Set(['delete-all']) })).toEqual({ success: true, run: 1 });
    expect(await executeTool(tool, {}, { confirmedTools: new Set(['delete-all']) })).toEqual({ success: true, run: 2 });
    expect(wrapWithConfirmation(createTool('plain-tool', { description: 'Needs no confirmation', execute: () => 1 })).requiresConfirmation).toBeUndefined();
  });
});
